import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Scope } from '@pylon/contracts';
import { Http } from '../support/http';
import { CLUSTER_TOPOLOGY, Stack } from '../support/stack';
import { createKey, createTenant, waitForRun, type Tenant } from '../support/tenant';
import { testInfra } from '../support/infra';
import { until } from '../support/wait';

/** The error matrix of spec 4.1, 4.2 and 7: every status with its exact body, scope by scope, org by org. */
describe('agent runs: errors, scopes and the org boundary', () => {
  let stack: Stack;
  let http: Http;
  let a: Tenant;
  let b: Tenant;
  let runOfB: string;
  const keysOfA: Partial<Record<Scope, string>> = {};

  const createBody = () => ({ org_id: a.orgId, agent_version_id: a.versionId, input: 'hello' });
  const expectError = (response: { status: number; body: unknown; headers: Headers }, status: number, code: string) => {
    assert.equal(response.status, status, JSON.stringify(response.body));
    assert.deepEqual(response.body, { error: code });
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  };

  before(async () => {
    stack = await Stack.start();
    http = new Http(stack.url);
    [a, b] = await Promise.all([createTenant(http), createTenant(http)]);
    for (const scope of ['runs:create', 'runs:read', 'kb:read', 'agents:manage'] as Scope[]) {
      keysOfA[scope] = await createKey(http, a.orgId, [scope]);
    }
    const run = await http.post('/api/v1/agent-runs', { token: b.key, body: { org_id: b.orgId, agent_version_id: b.versionId, input: 'b' } });
    assert.equal(run.status, 200);
    runOfB = run.body.run_id;
  });
  after(async () => stack?.stop());

  describe('401', () => {
    it('no Authorization header → missing_api_key, on create and on get', async () => {
      expectError(await http.post('/api/v1/agent-runs', { body: createBody() }), 401, 'missing_api_key');
      expectError(await http.get(`/api/v1/agent-runs/${randomUUID()}`), 401, 'missing_api_key');
    });

    it('authentication comes before body validation: no key and a malformed body is still 401', async () => {
      expectError(
        await http.post('/api/v1/agent-runs', { rawBody: '{oops', headers: { 'content-type': 'application/json' } }),
        401,
        'missing_api_key',
      );
    });

    for (const [label, header] of [
      ['an unknown key', 'Bearer pyl_000000000000000000000000000000000000000000000000'],
      ['a key with a wrong checksum', undefined],
      ['a non-Bearer scheme', 'Basic dXNlcjpwYXNz'],
      ['Bearer with no token', 'Bearer '],
      ['a key without the prefix', 'Bearer abc'],
    ] as const) {
      it(`${label} → invalid_api_key`, async () => {
        const value = header ?? `Bearer ${a.key.slice(0, -1)}${a.key.endsWith('A') ? 'B' : 'A'}`;
        expectError(await http.post('/api/v1/agent-runs', { headers: { authorization: value }, body: createBody() }), 401, 'invalid_api_key');
        expectError(await http.get(`/api/v1/agent-runs/${randomUUID()}`, { headers: { authorization: value } }), 401, 'invalid_api_key');
      });
    }

    it('a revoked key → invalid_api_key: at once on the process that revoked it, within a second on another replica', async () => {
      const issued = await http.post(`/admin/v1/orgs/${a.orgId}/api-keys`, { token: testInfra().adminToken, body: { name: 'r', scopes: ['*'] } });
      const key = issued.body.api_key as string;
      assert.equal((await http.get(`/api/v1/agent-runs?limit=1`, { token: key })).status, 200);
      const revoked = await http.delete(`/admin/v1/api-keys/${issued.body.key_id}`, { token: testInfra().adminToken });
      assert.equal(revoked.status, 200);
      assert.ok(revoked.body.revoked_at);
      // On the cluster topology the next connection may reach the other replica, which drops its cached key
      // when PostgreSQL's announcement reaches it (docs/production.md: within a second, not a cache time).
      const deadline = Date.now() + (CLUSTER_TOPOLOGY ? 1_000 : 0);
      let refused = await http.get(`/api/v1/agent-runs?limit=1`, { token: key });
      while (refused.status === 200 && Date.now() < deadline) refused = await http.get(`/api/v1/agent-runs?limit=1`, { token: key });
      expectError(refused, 401, 'invalid_api_key');
    });

    /** Asks with `key` again and again until it is refused, at most 100 ms after `at`: the refusal. */
    const refusedOnceAt = (key: string, at: number, what: string) =>
      until(
        what,
        async () => {
          const response = await http.get('/api/v1/agent-runs?limit=1', { token: key });
          return response.status !== 200 && response;
        },
        { timeoutMs: Math.max(0, at - Date.now()) + 100 },
      );

    it('an expired key → invalid_api_key', async () => {
      const expiresAt = Date.now() + 1500;
      const key = await createKey(http, a.orgId, ['*'], { expires_at: new Date(expiresAt).toISOString() });
      assert.equal((await http.get('/api/v1/agent-runs?limit=1', { token: key })).status, 200);
      // Asked again and again: refused within 100 ms of its expiry, never before it.
      const refused = await refusedOnceAt(key, expiresAt, 'the key refused once it expired');
      assert.ok(Date.now() >= expiresAt, `refused ${expiresAt - Date.now()} ms before it expired`);
      expectError(refused, 401, 'invalid_api_key');
    });

    it('a rolled key: the new secret works and the old one keeps working for the grace period', async () => {
      const issued = await http.post(`/admin/v1/orgs/${a.orgId}/api-keys`, {
        token: testInfra().adminToken,
        body: { name: 'roll', scopes: ['runs:read'] },
      });
      const oldKey = issued.body.api_key as string;
      const rollSentAt = Date.now();
      const rolled = await http.post(`/admin/v1/api-keys/${issued.body.key_id}/roll`, { token: testInfra().adminToken, body: { grace_seconds: 2 } });
      assert.equal(rolled.status, 200, rolled.text);
      const graceEndsAt = Date.now() + 2_000;
      const newKey = rolled.body.api_key as string;
      assert.notEqual(newKey, oldKey);
      assert.equal((await http.get('/api/v1/agent-runs?limit=1', { token: newKey })).status, 200);
      assert.equal((await http.get('/api/v1/agent-runs?limit=1', { token: oldKey })).status, 200);
      // Asked again and again: refused within 100 ms of the grace's end, never before it.
      const refused = await refusedOnceAt(oldKey, graceEndsAt, 'the old secret refused once its grace ended');
      assert.ok(Date.now() >= rollSentAt + 2_000, `refused ${Date.now() - rollSentAt} ms after the roll was sent, within its 2 s grace`);
      expectError(refused, 401, 'invalid_api_key');
      assert.equal((await http.get('/api/v1/agent-runs?limit=1', { token: newKey })).status, 200);
    });

    it('the admin API refuses organisation keys, and org routes refuse the admin token', async () => {
      expectError(await http.post('/admin/v1/orgs', { token: a.key, body: { name: 'x' } }), 401, 'invalid_api_key');
      expectError(await http.post('/admin/v1/orgs', { body: { name: 'x' } }), 401, 'missing_api_key');
      expectError(await http.get(`/api/v1/agent-runs/${runOfB}`, { token: testInfra().adminToken }), 401, 'invalid_api_key');
    });
  });

  describe('403', () => {
    it('create needs runs:create: every other scope → insufficient_scope', async () => {
      for (const scope of ['runs:read', 'kb:read', 'agents:manage'] as Scope[]) {
        expectError(await http.post('/api/v1/agent-runs', { token: keysOfA[scope], body: createBody() }), 403, 'insufficient_scope');
      }
      assert.equal((await http.post('/api/v1/agent-runs', { token: keysOfA['runs:create'], body: createBody() })).status, 200);
    });

    it('get needs runs:read: every other scope → insufficient_scope', async () => {
      const created = await http.post('/api/v1/agent-runs', { token: a.key, body: createBody() });
      for (const scope of ['runs:create', 'kb:read', 'agents:manage'] as Scope[]) {
        expectError(await http.get(`/api/v1/agent-runs/${created.body.run_id}`, { token: keysOfA[scope] }), 403, 'insufficient_scope');
      }
      assert.equal((await http.get(`/api/v1/agent-runs/${created.body.run_id}`, { token: keysOfA['runs:read'] })).status, 200);
    });

    it('an org_id of another organisation → insufficient_scope, and nothing is created in it', async () => {
      const before = await http.get(`/api/v1/agent-runs?limit=100`, { token: b.key });
      expectError(
        await http.post('/api/v1/agent-runs', { token: a.key, body: { org_id: b.orgId, agent_version_id: b.versionId, input: 'x' } }),
        403,
        'insufficient_scope',
      );
      const afterList = await http.get(`/api/v1/agent-runs?limit=100`, { token: b.key });
      assert.equal(afterList.body.data.length, before.body.data.length);
    });

    it('agents:manage routes refuse keys without it, and another org', async () => {
      expectError(
        await http.post('/api/v1/agents', { token: keysOfA['runs:create'], body: { org_id: a.orgId, name: 'n' } }),
        403,
        'insufficient_scope',
      );
      expectError(await http.post('/api/v1/agents', { token: a.key, body: { org_id: b.orgId, name: 'n' } }), 403, 'insufficient_scope');
    });
  });

  describe('404', () => {
    it('a run of another organisation is not_found, never forbidden', async () => {
      expectError(await http.get(`/api/v1/agent-runs/${runOfB}`, { token: a.key }), 404, 'not_found');
      assert.equal((await http.get(`/api/v1/agent-runs/${runOfB}`, { token: b.key })).status, 200);
    });

    it('an unknown run → not_found', async () => {
      expectError(await http.get(`/api/v1/agent-runs/${randomUUID()}`, { token: a.key }), 404, 'not_found');
    });

    it('an unknown route → not_found, with or without a key', async () => {
      expectError(await http.get('/api/v1/nope', { token: a.key }), 404, 'not_found');
      expectError(await http.get('/nope'), 404, 'not_found');
    });

    it('a known path with another method → 405 method_not_allowed, with Allow', async () => {
      const response = await http.request('PUT', '/api/v1/agent-runs', { token: a.key, body: {} });
      expectError(response, 405, 'method_not_allowed');
      assert.equal(response.headers.get('allow'), 'GET, HEAD, POST');
    });

    it("another org's agent and agent version are not_found", async () => {
      expectError(await http.get(`/api/v1/agents/${b.agentId}`, { token: a.key }), 404, 'not_found');
      expectError(await http.get(`/api/v1/agent-versions/${b.versionId}`, { token: a.key }), 404, 'not_found');
      expectError(
        await http.post(`/api/v1/agents/${b.agentId}/versions`, { token: a.key, body: { model: 'local/echo', instructions: 'x' } }),
        404,
        'not_found',
      );
    });
  });

  describe('400 invalid_request', () => {
    const invalidBodies: Array<[string, unknown]> = [
      ['an empty object', {}],
      ['org_id missing', { agent_version_id: randomUUID(), input: 'x' }],
      ['agent_version_id missing', { org_id: '$org', input: 'x' }],
      ['input missing', { org_id: '$org', agent_version_id: '$version' }],
      ['an extra property', { org_id: '$org', agent_version_id: '$version', input: 'x', model: 'gpt' }],
      ['input a number', { org_id: '$org', agent_version_id: '$version', input: 42 }],
      ['input null', { org_id: '$org', agent_version_id: '$version', input: null }],
      ['input an object', { org_id: '$org', agent_version_id: '$version', input: { text: 'x' } }],
      ['input empty', { org_id: '$org', agent_version_id: '$version', input: '' }],
      ['org_id not a uuid', { org_id: 'acme', agent_version_id: '$version', input: 'x' }],
      ['org_id a number', { org_id: 7, agent_version_id: '$version', input: 'x' }],
      ['agent_version_id not a uuid', { org_id: '$org', agent_version_id: 'v1', input: 'x' }],
      ['a JSON array', [{ org_id: '$org', agent_version_id: '$version', input: 'x' }]],
      ['a JSON string', 'hello'],
      ['JSON null', null],
    ];
    for (const [label, template] of invalidBodies) {
      it(`create with ${label}`, async () => {
        const body = JSON.parse(JSON.stringify(template).replaceAll('$org', a.orgId).replaceAll('$version', a.versionId));
        expectError(
          await http.post('/api/v1/agent-runs', { token: a.key, rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
          400,
          'invalid_request',
        );
      });
    }

    it('create with malformed JSON, an empty body, or no body', async () => {
      const json = { 'content-type': 'application/json' };
      expectError(await http.post('/api/v1/agent-runs', { token: a.key, rawBody: '{"org_id": ', headers: json }), 400, 'invalid_request');
      expectError(await http.post('/api/v1/agent-runs', { token: a.key, rawBody: '', headers: json }), 400, 'invalid_request');
      expectError(await http.post('/api/v1/agent-runs', { token: a.key }), 400, 'invalid_request');
    });

    it('create with a "__proto__" or "constructor.prototype" key, at the top or nested: refused, no run made', async () => {
      const json = { 'content-type': 'application/json' };
      const valid = JSON.stringify(createBody()).slice(0, -1);
      const before = await http.get('/api/v1/agent-runs?limit=100', { token: a.key });
      for (const rawBody of [
        `${valid}, "__proto__": {"admin": true}}`,
        `${valid}, "x": {"__proto__": {}}}`,
        `${valid}, "constructor": {"prototype": {"admin": true}}}`,
      ]) {
        const response = await http.post('/api/v1/agent-runs', { token: a.key, rawBody, headers: json });
        expectError(response, 400, 'invalid_request');
        assert.match(response.headers.get('error-detail') ?? '', /__proto__/);
      }
      const after = await http.get('/api/v1/agent-runs?limit=100', { token: a.key });
      assert.deepEqual(
        after.body.data.map((run: { run_id: string }) => run.run_id),
        before.body.data.map((run: { run_id: string }) => run.run_id),
      );
      // The same words as data are fine.
      const response = await http.post('/api/v1/agent-runs', {
        token: a.key,
        body: { ...createBody(), input: 'what is "__proto__" in JavaScript, and constructor.prototype?' },
      });
      assert.equal(response.status, 200, response.text);
    });

    it('create with an agent version that does not exist, or belongs to another org', async () => {
      expectError(
        await http.post('/api/v1/agent-runs', { token: a.key, body: { ...createBody(), agent_version_id: randomUUID() } }),
        400,
        'invalid_request',
      );
      expectError(
        await http.post('/api/v1/agent-runs', { token: a.key, body: { ...createBody(), agent_version_id: b.versionId } }),
        400,
        'invalid_request',
      );
    });

    it('get with a runId that is not a uuid', async () => {
      for (const id of ['123', 'not-a-uuid', `${randomUUID()}x`, "1'%20OR%20'1'='1"]) {
        expectError(await http.get(`/api/v1/agent-runs/${id}`, { token: a.key }), 400, 'invalid_request');
      }
    });

    it('list with bad query parameters', async () => {
      for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=2.5', 'status=done', 'cursor=garbage', 'org_id=nope', 'unknown=1']) {
        expectError(await http.get(`/api/v1/agent-runs?${query}`, { token: a.key }), 400, 'invalid_request');
      }
    });

    it('a bad Idempotency-Key header', async () => {
      expectError(
        await http.post('/api/v1/agent-runs', { token: a.key, body: createBody(), headers: { 'idempotency-key': 'x'.repeat(300) } }),
        400,
        'invalid_request',
      );
    });

    it('agent versions: unknown provider or model, out-of-range numbers, extra properties', async () => {
      for (const body of [
        { model: 'nope/model', instructions: 'x' },
        { model: 'local/gpt-9', instructions: 'x' },
        { model: 'gpt-4o', instructions: 'x' },
        { model: 'local/echo', instructions: 'x', temperature: 3 },
        { model: 'local/echo', instructions: 'x', temperature: '0.5' },
        { model: 'local/echo', instructions: 'x', max_output_tokens: 0 },
        { model: 'local/echo', instructions: 'x', run_timeout_seconds: 1.5 },
        { model: 'local/echo', instructions: 'x', version: 7 },
        { model: 'local/echo' },
      ]) {
        expectError(await http.post(`/api/v1/agents/${a.agentId}/versions`, { token: a.key, body }), 400, 'invalid_request');
      }
    });
  });

  describe('413', () => {
    it('a body over the limit → payload_too_large', async () => {
      const response = await http.post('/api/v1/agent-runs', { token: a.key, body: { ...createBody(), input: 'x'.repeat(2 * 1024 * 1024) } });
      expectError(response, 413, 'payload_too_large');
    });
  });

  describe('415', () => {
    it('create with another content type → unsupported_media_type', async () => {
      expectError(
        await http.post('/api/v1/agent-runs', { token: a.key, rawBody: 'input=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
        415,
        'unsupported_media_type',
      );
      expectError(
        await http.post('/api/v1/agent-runs', { token: a.key, rawBody: JSON.stringify(createBody()), headers: { 'content-type': 'text/plain' } }),
        415,
        'unsupported_media_type',
      );
    });
  });

  it('every error body is exactly {"error": code} and carries no stack', async () => {
    const response = await http.post('/api/v1/agent-runs', { token: a.key, rawBody: '{', headers: { 'content-type': 'application/json' } });
    assert.equal(response.text, '{"error":"invalid_request"}');
    assert.ok(response.headers.get('error-detail'));
  });

  it('the server is still healthy after all of the above, and a normal run succeeds', async () => {
    const created = await http.post('/api/v1/agent-runs', { token: a.key, body: createBody() });
    assert.equal(created.status, 200);
    const { run } = await waitForRun(http, a.key, created.body.run_id);
    assert.equal(run.status, 'succeeded');
  });

  describe('400 for text PostgreSQL cannot store, numbers beyond a double, and bodies nested too deep: one rule at the edge', () => {
    const json = (text: string) => ({ rawBody: text, headers: { 'content-type': 'application/json' } });
    const cases: Array<[label: string, path: string, body: () => string]> = [
      ['NUL in an agent name', '/api/v1/agents', () => `{"org_id": "${a.orgId}", "name": "a\\u0000b"}`],
      ['NUL in a run input', '/api/v1/agent-runs', () => `{"org_id": "${a.orgId}", "agent_version_id": "${a.versionId}", "input": "hi\\u0000"}`],
      [
        'a lone surrogate in a run input',
        '/api/v1/agent-runs',
        () => `{"org_id": "${a.orgId}", "agent_version_id": "${a.versionId}", "input": "\\ud800"}`,
      ],
      [
        'NUL inside document metadata',
        '/api/v1/knowledge/documents',
        () => `{"org_id": "${a.orgId}", "title": "t", "content": "c", "metadata": {"k": ["\\u0000"]}}`,
      ],
      [
        'a lone surrogate in a metadata key',
        '/api/v1/knowledge/documents',
        () => `{"org_id": "${a.orgId}", "title": "t", "content": "c", "metadata": {"\\udc00": 1}}`,
      ],
      ['JSON nested 3 000 levels deep', '/api/v1/agent-runs', () => `{"org_id": "${a.orgId}", "input": ${'['.repeat(3000)}${']'.repeat(3000)}}`],
      ['JSON nested 3 000 levels deep, in objects', '/api/v1/knowledge/documents', () => `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`],
      // JSON.parse reads 1e400 as Infinity, which JSON.stringify would store as null: the value would be lost.
      [
        'a number beyond a double in document metadata',
        '/api/v1/knowledge/documents',
        () => `{"org_id": "${a.orgId}", "title": "t", "content": "c", "metadata": {"size": 1e400}}`,
      ],
      [
        'a negative one in a list',
        '/api/v1/knowledge/documents',
        () => `{"org_id": "${a.orgId}", "title": "t", "content": "c", "metadata": {"sizes": [1, -2e308]}}`,
      ],
    ];
    for (const [label, path, body] of cases) {
      it(`${label} → 400 invalid_request, nothing echoed`, async () => {
        const response = await http.post(path, { token: a.key, ...json(body()) });
        expectError(response, 400, 'invalid_request');
        assert.doesNotMatch(response.headers.get('error-detail') ?? '', /\\u|\u0000/);
      });
    }

    it('emoji and other well-formed text are stored and read back as they are', async () => {
      const input = 'rocket \ud83d\ude80, Пилон, 塔';
      const created = await http.post('/api/v1/agent-runs', { token: a.key, body: { org_id: a.orgId, agent_version_id: a.versionId, input } });
      assert.equal(created.status, 200, created.text);
      const read = await http.get(`/api/v1/agent-runs/${created.body.run_id}`, { token: a.key });
      assert.equal(read.body.input, input);
    });
  });
});
