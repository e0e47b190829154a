import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Http } from '../support/http';
import { Stack } from '../support/stack';
import { createTenant, type Tenant } from '../support/tenant';

/**
 * Creating an agent, a version or a webhook endpoint with an Idempotency-Key, as a client retrying after a
 * lost answer would: the same key and body answer what the first request made (once, even when both race),
 * another body is 409 `idempotency_key_reused`, and another organisation's key of the same value is its own.
 */
describe('Idempotency-Key on agent, version and webhook endpoint creates', () => {
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;

  before(async () => {
    stack = await Stack.start({ worker: false, env: { WEBHOOK_ALLOWED_PRIVATE_TARGETS: 'loopback' } });
    http = new Http(stack.url);
    tenant = await createTenant(http);
  });
  after(async () => stack?.stop());

  const post = (path: string, key: string, idempotencyKey: string, body: unknown, token = tenant.key) =>
    http.post(path, { token, body, headers: { 'idempotency-key': idempotencyKey } });

  const cases = () => [
    {
      what: 'an agent',
      path: '/api/v1/agents',
      body: { org_id: tenant.orgId, name: 'once' },
      other: { org_id: tenant.orgId, name: 'twice' },
      id: 'agent_id',
    },
    {
      what: 'an agent version',
      path: `/api/v1/agents/${tenant.agentId}/versions`,
      body: { model: 'local/extractive', instructions: 'Once.' },
      other: { model: 'local/extractive', instructions: 'Twice.' },
      id: 'agent_version_id',
    },
    {
      what: 'a webhook endpoint',
      path: '/api/v1/webhook-endpoints',
      body: { org_id: tenant.orgId, url: 'http://127.0.0.1:9/once' },
      other: { org_id: tenant.orgId, url: 'http://127.0.0.1:9/twice' },
      id: 'endpoint_id',
    },
  ];

  it('the same key and body answer the first create, even when two race; another body is 409', async () => {
    for (const { what, path, body, other, id } of cases()) {
      const key = randomUUID();
      const [first, racing] = await Promise.all([post(path, tenant.key, key, body), post(path, tenant.key, key, body)]);
      assert.equal(first.status, 201, `${what}: ${first.text}`);
      assert.equal(racing.status, 201, `${what}: ${racing.text}`);
      assert.equal(racing.body[id], first.body[id], `${what}: one resource for two racing requests`);
      const retried = await post(path, tenant.key, key, body);
      assert.deepEqual(retried.body, first.body, `${what}: a retry answers the first create exactly (a secret included)`);
      const reused = await post(path, tenant.key, key, other);
      assert.equal(reused.status, 409, `${what}: ${reused.text}`);
      assert.deepEqual(reused.body, { error: 'idempotency_key_reused' });
    }
  });

  it("another organisation's request with the same key value makes its own", async () => {
    const other = await createTenant(http);
    const key = randomUUID();
    const mine = await post('/api/v1/agents', tenant.key, key, { org_id: tenant.orgId, name: 'shared key' });
    const theirs = await post('/api/v1/agents', other.key, key, { org_id: other.orgId, name: 'shared key' }, other.key);
    assert.equal(theirs.status, 201, theirs.text);
    assert.notEqual(theirs.body.agent_id, mine.body.agent_id);
  });

  it('a malformed key is 400 before anything is made', async () => {
    const response = await post('/api/v1/agents', tenant.key, 'has spaces', { org_id: tenant.orgId, name: 'bad key' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { error: 'invalid_request' });
  });
});
