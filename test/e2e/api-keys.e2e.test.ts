import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Http } from '../support/http';
import { Stack } from '../support/stack';
import { createKey, createTenant, type Tenant } from '../support/tenant';
import { until } from '../support/wait';

/** An organisation's own key management through the public API (scope keys:manage). */
describe("an organisation's API keys", () => {
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;
  let manager: string;

  before(async () => {
    stack = await Stack.start();
    http = new Http(stack.url);
    tenant = await createTenant(http);
    manager = await createKey(http, tenant.orgId, ['keys:manage', 'runs:read', 'runs:create']);
  });
  after(async () => stack?.stop());

  const create = (token: string, body: Record<string, unknown>) => http.post('/api/v1/api-keys', { token, body });

  it('creates a key with the secret shown once; the list shows it without a secret; it works at once', async () => {
    const created = await create(manager, { name: 'reader', scopes: ['runs:read'] });
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.api_key, /^pyl_/);
    assert.equal(created.body.org_id, tenant.orgId);
    assert.deepEqual(created.body.scopes, ['runs:read']);

    const listed = await http.get('/api/v1/api-keys?limit=100', { token: manager });
    assert.equal(listed.status, 200);
    const mine = listed.body.data.find((key: { key_id: string }) => key.key_id === created.body.key_id);
    assert.ok(mine, 'the new key is listed');
    assert.equal(mine.api_key, undefined, 'no secret in the list');
    assert.ok(
      listed.body.data.every((key: { org_id: string }) => key.org_id === tenant.orgId),
      'only this organisation',
    );

    assert.equal((await http.get('/api/v1/agent-runs', { token: created.body.api_key })).status, 200);
    assert.equal((await http.post('/api/v1/agent-runs', { token: created.body.api_key, body: {} })).status, 403, 'only its scope');
  });

  it('a key can never grant scopes its creator lacks, nor * unless it has *', async () => {
    for (const scopes of [['kb:write'], ['runs:read', 'video:create'], ['*']]) {
      const refused = await create(manager, { name: 'too much', scopes });
      assert.equal(refused.status, 403, JSON.stringify(scopes));
      assert.deepEqual(refused.body, { error: 'insufficient_scope' });
      assert.match(refused.headers.get('error-detail') ?? '', /cannot grant scopes its creator lacks/);
    }
    const byStar = await create(tenant.key, { name: 'everything', scopes: ['*'] });
    assert.equal(byStar.status, 201, 'a * key may create a * key');
  });

  it('revoke: a request with the revoked key fails at once; roll: the new secret works, the old one for the grace period', async () => {
    const created = await create(manager, { name: 'short-lived', scopes: ['runs:read'] });
    const rolled = await http.post(`/api/v1/api-keys/${created.body.key_id}/roll`, { token: manager, body: { grace_seconds: 3600 } });
    assert.equal(rolled.status, 200, rolled.text);
    assert.notEqual(rolled.body.api_key, created.body.api_key);
    assert.equal((await http.get('/api/v1/agent-runs', { token: rolled.body.api_key })).status, 200);
    assert.equal((await http.get('/api/v1/agent-runs', { token: created.body.api_key })).status, 200, 'the old secret, within its grace');

    const revoked = await http.delete(`/api/v1/api-keys/${created.body.key_id}`, { token: manager });
    assert.equal(revoked.status, 200, revoked.text);
    assert.ok(revoked.body.revoked_at);
    for (const secret of [rolled.body.api_key, created.body.api_key]) {
      const refused = await http.get('/api/v1/agent-runs', { token: secret });
      assert.equal(refused.status, 401);
      assert.deepEqual(refused.body, { error: 'invalid_api_key' });
    }
  });

  it('a previous secret that this process has cached stops working when its grace period ends; the current one goes on', async () => {
    const created = await create(manager, { name: 'brief-grace', scopes: ['runs:read'] });
    // The grace starts while the roll is answered: after it was sent, by the time its answer came.
    const rollSentAt = Date.now();
    const rolled = await http.post(`/api/v1/api-keys/${created.body.key_id}/roll`, { token: manager, body: { grace_seconds: 2 } });
    assert.equal(rolled.status, 200, rolled.text);
    const graceEndsAt = Date.now() + 2_000;
    for (let i = 0; i < 3; i++) {
      assert.equal((await http.get('/api/v1/agent-runs', { token: created.body.api_key })).status, 200, `the old secret, within its grace (${i})`);
      assert.equal((await http.get('/api/v1/agent-runs', { token: rolled.body.api_key })).status, 200, `the new secret (${i})`);
    }
    // Asked again and again (the process keeps it cached): refused within 300 ms of the grace's end, never before it.
    const refused = await until(
      'the old secret refused once its grace ended',
      async () => {
        const response = await http.get('/api/v1/agent-runs', { token: created.body.api_key });
        return response.status !== 200 && response;
      },
      { timeoutMs: Math.max(0, graceEndsAt - Date.now()) + 300 },
    );
    assert.ok(Date.now() >= rollSentAt + 2_000, `refused ${Date.now() - rollSentAt} ms after the roll was sent, within its 2 s grace`);
    assert.equal(refused.status, 401, refused.text);
    assert.deepEqual(refused.body, { error: 'invalid_api_key' });
    const current = await http.get('/api/v1/agent-runs', { token: rolled.body.api_key });
    assert.equal(current.status, 200, current.text);
  });

  it('a key revoked or rolled through one API process stops working at once on another that had it cached', async () => {
    const replica = await stack.startApiReplica({ API_KEY_CACHE_SECONDS: '300' });
    try {
      const other = new Http(replica.url);
      const created = await create(manager, { name: 'cached elsewhere', scopes: ['runs:read'] });
      // The replica verifies it, and would keep it for 300 s without hearing a change.
      assert.equal((await other.get('/api/v1/agent-runs', { token: created.body.api_key })).status, 200);
      const rolled = await http.post(`/api/v1/api-keys/${created.body.key_id}/roll`, { token: manager, body: { grace_seconds: 0 } });
      assert.equal(rolled.status, 200, rolled.text);
      const deadline = Date.now() + 1_000;
      let answered = await other.get('/api/v1/agent-runs', { token: created.body.api_key });
      while (answered.status === 200 && Date.now() < deadline) answered = await other.get('/api/v1/agent-runs', { token: created.body.api_key });
      assert.equal(answered.status, 401, 'the rolled-away secret, on the other process, within a second');

      assert.equal((await other.get('/api/v1/agent-runs', { token: rolled.body.api_key })).status, 200);
      assert.equal((await http.delete(`/api/v1/api-keys/${created.body.key_id}`, { token: manager })).status, 200);
      let revoked = await other.get('/api/v1/agent-runs', { token: rolled.body.api_key });
      while (revoked.status === 200 && Date.now() < deadline + 1_000) revoked = await other.get('/api/v1/agent-runs', { token: rolled.body.api_key });
      assert.equal(revoked.status, 401, 'the revoked key, on the other process, within a second');
    } finally {
      await replica.api.stop();
    }
  });

  it('rotation contains a leak: during the grace period the previous secret works but cannot create, roll or revoke keys; the current one can', async () => {
    const leaked = await createKey(http, tenant.orgId, ['keys:manage', 'runs:read']);
    const keyId = (await http.get('/api/v1/whoami', { token: leaked })).body.key_id as string;
    const rolled = await http.post(`/api/v1/api-keys/${keyId}/roll`, { token: leaked, body: { grace_seconds: 3600 } });
    assert.equal(rolled.status, 200, rolled.text);
    const current = rolled.body.api_key as string;
    assert.equal((await http.get('/api/v1/agent-runs', { token: leaked })).status, 200, 'the previous secret still works for reads');

    const other = await create(manager, { name: 'another', scopes: ['runs:read'] });
    for (const [what, attempt] of [
      ['roll itself again', () => http.post(`/api/v1/api-keys/${keyId}/roll`, { token: leaked, body: { grace_seconds: 0 } })],
      ['revoke itself', () => http.delete(`/api/v1/api-keys/${keyId}`, { token: leaked })],
      ['revoke another key', () => http.delete(`/api/v1/api-keys/${other.body.key_id}`, { token: leaked })],
      ['create a key', () => create(leaked, { name: 'mine now', scopes: ['runs:read'] })],
    ] as const) {
      const refused = await attempt();
      assert.equal(refused.status, 403, `${what}: ${refused.text}`);
      assert.deepEqual(refused.body, { error: 'insufficient_scope' });
      assert.match(refused.headers.get('error-detail') ?? '', /previous secret/);
    }
    assert.equal((await http.get('/api/v1/agent-runs', { token: current })).status, 200, "the owner's current secret is untouched");
    const rolledByOwner = await http.post(`/api/v1/api-keys/${keyId}/roll`, { token: current, body: { grace_seconds: 0 } });
    assert.equal(rolledByOwner.status, 200, rolledByOwner.text);
    assert.equal(
      (await http.get('/api/v1/agent-runs', { token: leaked })).status,
      401,
      'the leaked secret is dead once the owner rolls without grace',
    );
    assert.equal((await http.get('/api/v1/agent-runs', { token: current })).status, 401);
    assert.equal((await http.get('/api/v1/agent-runs', { token: rolledByOwner.body.api_key })).status, 200);
  });

  it('any key reads itself at /whoami, whatever its scopes: its organisation and scopes, no secret', async () => {
    const plain = await createKey(http, tenant.orgId, ['runs:read', 'kb:read']);
    const current = await http.get('/api/v1/whoami', { token: plain });
    assert.equal(current.status, 200, current.text);
    assert.equal(current.body.org_id, tenant.orgId);
    assert.deepEqual(current.body.scopes, ['runs:read', 'kb:read']);
    assert.equal(current.body.api_key, undefined, 'no secret');
    assert.ok(plain.startsWith(current.body.hint.replace('…', '')), 'the hint is the beginning of the key');
    const missing = await http.get('/api/v1/whoami');
    assert.equal(missing.status, 401);
    assert.deepEqual(missing.body, { error: 'missing_api_key' });
  });

  it("another organisation's keys are not found; without keys:manage, 403", async () => {
    const other = await createTenant(http);
    const otherManager = await createKey(http, other.orgId, ['keys:manage']);
    const theirs = await create(otherManager, { name: 'theirs', scopes: ['keys:manage'] });
    for (const [method, path] of [
      ['POST', `/api/v1/api-keys/${theirs.body.key_id}/roll`],
      ['DELETE', `/api/v1/api-keys/${theirs.body.key_id}`],
      ['DELETE', `/api/v1/api-keys/${randomUUID()}`],
    ] as const) {
      const response = method === 'POST' ? await http.post(path, { token: manager, body: {} }) : await http.delete(path, { token: manager });
      assert.equal(response.status, 404, `${method} ${path}`);
      assert.deepEqual(response.body, { error: 'not_found' });
    }
    assert.equal((await http.get('/api/v1/agent-runs', { token: theirs.body.api_key })).status, 403, 'their key still works, in its own scope');

    const plain = await createKey(http, tenant.orgId, ['runs:read']);
    for (const response of [await http.get('/api/v1/api-keys', { token: plain }), await create(plain, { name: 'x', scopes: ['runs:read'] })]) {
      assert.equal(response.status, 403);
      assert.deepEqual(response.body, { error: 'insufficient_scope' });
    }
  });
});
