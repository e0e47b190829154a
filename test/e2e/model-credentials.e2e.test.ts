import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { FakeAnthropic, keyOf } from '../support/fake-anthropic';
import { FakeOpenAi } from '../support/fake-openai';
import { Http } from '../support/http';
import { grantTokens } from '../support/ledger';
import { Stack } from '../support/stack';
import { createKey, createTenant, createVersion, waitForRun, type Tenant } from '../support/tenant';

const OPERATOR_OPENAI_KEY = 'sk-operator-7c1d9e3f5a2b';
const OPERATOR_ANTHROPIC_KEY = 'sk-ant-operator-4e8a2c6d0f';
const ORG_KEYS = ['sk-org-one-1a2b3c4d5e6f', 'sk-org-two-6f5e4d3c2b1a', 'sk-org-three-9a8b7c6d5e4f'];
const ORG_ANTHROPIC_KEY = 'sk-ant-org-2b4d6f8a0c1e';

/**
 * Organisations' own provider keys through the whole stack: set, masked, checked, used by their runs (the fake
 * providers record which key each request carried), priced only by the operator's per-organisation prices, and
 * never in a response or a log line. The operator shares its OpenAI key (MODEL_SHARED_PROVIDERS=openai) but not
 * its Anthropic one.
 */
describe('model credentials', () => {
  let openai: FakeOpenAi;
  let anthropic: FakeAnthropic;
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;

  before(async () => {
    [openai, anthropic] = await Promise.all([FakeOpenAi.start(), FakeAnthropic.start()]);
    stack = await Stack.start({
      env: {
        OPENAI_API_KEY: OPERATOR_OPENAI_KEY,
        OPENAI_BASE_URL: openai.baseUrl,
        ANTHROPIC_API_KEY: OPERATOR_ANTHROPIC_KEY,
        ANTHROPIC_BASE_URL: anthropic.baseUrl,
        MODEL_SHARED_PROVIDERS: 'openai',
        SECRETS_KEY: randomBytes(32).toString('base64'),
        MODEL_PRICES: JSON.stringify({ 'openai/*': { input: 10, output: 10 } }),
        LLM_HEARTBEAT_TIMEOUT_SECONDS: '10',
      },
    });
    http = new Http(stack.url);
    tenant = await createTenant(http);
  });
  after(async () => {
    await stack?.stop();
    await Promise.all([openai?.stop(), anthropic?.close()]);
  });

  const put = (who: Tenant, provider: string, body: unknown) => http.put(`/api/v1/model-credentials/${provider}`, { token: who.key, body });
  const run = async (who: Tenant, versionId: string, input = 'Hello') => {
    const created = await http.post('/api/v1/agent-runs', { token: who.key, body: { org_id: who.orgId, agent_version_id: versionId, input } });
    assert.equal(created.status, 200, created.text);
    return (await waitForRun(http, who.key, created.body.run_id)).run;
  };
  const providers = async (who: Tenant) =>
    Object.fromEntries(
      (
        (await http.get('/api/v1/models', { token: who.key })).body.data as Array<{ provider: string; available: boolean; key_source: string | null }>
      ).map((entry) => [entry.provider, [entry.available, entry.key_source]]),
    );

  it('a key is set, listed and answered masked, checked with one call to the provider, and removed', async () => {
    const own = await createTenant(http);
    const set = await put(own, 'anthropic', { api_key: ORG_ANTHROPIC_KEY });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body.provider, 'anthropic');
    assert.equal(set.body.api_key, 'sk-…0c1e');
    assert.ok(!set.text.includes(ORG_ANTHROPIC_KEY));
    const listed = await http.get('/api/v1/model-credentials', { token: own.key });
    assert.deepEqual(listed.body.data, [set.body]);

    anthropic.acceptedKeys = new Set([ORG_ANTHROPIC_KEY, OPERATOR_ANTHROPIC_KEY]);
    try {
      const works = await http.post('/api/v1/model-credentials/anthropic/check', { token: own.key });
      assert.deepEqual(works.body, { provider: 'anthropic', valid: true, reason: null });
      assert.equal(keyOf(anthropic.modelListings.at(-1)!.headers), ORG_ANTHROPIC_KEY);
      await put(own, 'anthropic', { api_key: 'sk-ant-revoked-000000' });
      const refused = await http.post('/api/v1/model-credentials/anthropic/check', { token: own.key });
      assert.equal(refused.status, 200, refused.text);
      assert.equal(refused.body.valid, false);
      assert.match(refused.body.reason, /Anthropic answered 401/);
    } finally {
      anthropic.acceptedKeys = null;
    }
    const replaced = (await http.get('/api/v1/model-credentials', { token: own.key })).body.data[0];
    assert.equal(replaced.created_at, set.body.created_at, 'the first key set it');
    assert.ok(replaced.updated_at > set.body.updated_at);

    assert.equal((await http.delete('/api/v1/model-credentials/anthropic', { token: own.key })).status, 204);
    assert.deepEqual((await http.get('/api/v1/model-credentials', { token: own.key })).body.data, []);
    assert.equal((await http.delete('/api/v1/model-credentials/anthropic', { token: own.key })).status, 404);
  });

  it('bad requests: an unknown provider 404, a provider without keys, a bad body, another scope', async () => {
    assert.equal((await put(tenant, 'nosuch', { api_key: 'sk-x' })).status, 404);
    assert.equal((await put(tenant, 'local', { api_key: 'sk-x' })).status, 400);
    // A provider that takes no key has none to remove or check.
    assert.equal((await http.delete('/api/v1/model-credentials/local', { token: tenant.key })).status, 404);
    assert.equal((await http.post('/api/v1/model-credentials/local/check', { token: tenant.key })).status, 404);
    for (const body of [
      {},
      { api_key: '' },
      { api_key: 42 },
      { api_key: 'has space' },
      { api_key: 'sk-x', extra: 1 },
      { api_key: 'x'.repeat(1025) },
    ]) {
      const answer = await put(tenant, 'openai', body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.deepEqual(answer.body, { error: 'invalid_request' });
    }
    assert.equal((await http.post('/api/v1/model-credentials/openai/check', { token: tenant.key })).status, 404, 'no key to check');
    const reader = await createKey(http, tenant.orgId, ['agents:manage', 'runs:read']);
    assert.equal((await http.get('/api/v1/model-credentials', { token: reader })).status, 403);
    assert.equal((await http.put('/api/v1/model-credentials/openai', { token: reader, body: { api_key: 'sk-x' } })).status, 403);
  });

  it("three organisations on their own keys and one on the operator's, at once: every request carries its own organisation's key", async () => {
    const owners = await Promise.all(ORG_KEYS.map(() => createTenant(http)));
    await Promise.all(owners.map(async (owner, i) => assert.equal((await put(owner, 'openai', { api_key: ORG_KEYS[i] })).status, 200)));
    const shared = await createTenant(http);
    await grantTokens(http, shared.orgId, 10_000);
    const everyone = [...owners, shared];
    const versions = await Promise.all(everyone.map((who) => createVersion(http, who.key, who.agentId, { model: 'openai/gpt-4o-mini' })));
    openai.defaultReply = { content: 'answered', usage: { prompt_tokens: 100, completion_tokens: 100 } };
    const before = openai.requests.length;
    const runs = await Promise.all(everyone.flatMap((who, i) => [0, 1, 2].map(() => run(who, versions[i]!))));
    assert.deepEqual(
      runs.map((finished) => finished.status),
      runs.map(() => 'succeeded'),
    );
    const sent = openai.requests.slice(before);
    assert.equal(sent.length, 12);
    const expected = [...ORG_KEYS, OPERATOR_OPENAI_KEY];
    for (const [i, who] of everyone.entries()) {
      const usage = await Promise.all(
        runs.slice(i * 3, i * 3 + 3).map((finished) => http.get(`/api/v1/agent-runs/${finished.run_id}/usage`, { token: who.key })),
      );
      for (const answer of usage) {
        const [turn] = answer.body.turns;
        assert.equal(turn.key_source, i < 3 ? 'organization' : 'operator');
        assert.equal(turn.cost_tokens, i < 3 ? 0 : 2, "MODEL_PRICES price the operator's key only");
      }
      assert.deepEqual((await providers(who)).openai, [true, i < 3 ? 'organization' : 'operator']);
    }
    const keysSeen = new Set(sent.map((request) => request.authorization));
    assert.deepEqual([...keysSeen].sort(), expected.map((key) => `Bearer ${key}`).sort());
    for (const [i, key] of expected.entries()) {
      const carried = sent.filter((request) => request.authorization === `Bearer ${key}`).length;
      assert.equal(carried, 3, `organisation ${i}'s three runs went out on its key`);
    }
    const answers = await Promise.all(everyone.map((who) => http.get('/api/v1/model-credentials', { token: who.key })));
    const logs = `${stack.api.log()}\n${stack.worker.log()}`;
    for (const key of [...expected, ORG_ANTHROPIC_KEY, OPERATOR_ANTHROPIC_KEY]) {
      assert.ok(!logs.includes(key), `${key} is in a log line`);
      assert.ok(
        answers.every((answer) => !answer.text.includes(key)),
        `${key} is in an answer`,
      );
    }
  });

  it("a provider the operator does not share needs the organisation's own key: a version without one is 400, a run whose key went fails naming it", async () => {
    const own = await createTenant(http);
    assert.deepEqual((await providers(own)).anthropic, [false, null]);
    const refused = await http.post(`/api/v1/agents/${own.agentId}/versions`, {
      token: own.key,
      body: { model: 'anthropic/claude-sonnet-4-5', instructions: 'Help.' },
    });
    assert.equal(refused.status, 400);
    assert.match(refused.headers.get('error-detail') ?? '', /no anthropic key.*does not share.*PUT \/api\/v1\/model-credentials\/anthropic/);

    await put(own, 'anthropic', { api_key: ORG_ANTHROPIC_KEY });
    assert.deepEqual((await providers(own)).anthropic, [true, 'organization']);
    const versionId = await createVersion(http, own.key, own.agentId, { model: 'anthropic/claude-sonnet-4-5' });
    const before = anthropic.requests.length;
    assert.equal((await run(own, versionId)).status, 'succeeded');
    assert.equal(keyOf(anthropic.requests[before]!.headers), ORG_ANTHROPIC_KEY);

    await http.delete('/api/v1/model-credentials/anthropic', { token: own.key });
    const failed = await run(own, versionId);
    assert.equal(failed.status, 'failed');
    assert.match(failed.error, /the organisation has no anthropic key/);
    assert.equal(anthropic.requests.length, before + 1, 'nothing went out on the operator’s key');
  });

  it('key rotation: `secrets reseal` seals the keys again under the new SECRETS_KEY, and runs go on on them under it alone', async () => {
    const own = await createTenant(http);
    await put(own, 'anthropic', { api_key: ORG_ANTHROPIC_KEY });
    const versionId = await createVersion(http, own.key, own.agentId, { model: 'anthropic/claude-sonnet-4-5' });
    const newKey = randomBytes(32).toString('base64');
    const replica = await stack.startApiReplica({ SECRETS_KEY: newKey, SECRETS_PREVIOUS_KEYS: stack.env.SECRETS_KEY! });
    try {
      const admin = new Http(replica.url);
      const resealed = await admin.post(`/admin/v1/orgs/${own.orgId}/secrets/reseal`, { token: stack.env.ADMIN_TOKEN! });
      assert.equal(resealed.status, 200, resealed.text);
      assert.equal(resealed.body.resealed_model_credentials, 1, resealed.text);
      const again = await admin.post(`/admin/v1/orgs/${own.orgId}/secrets/reseal`, { token: stack.env.ADMIN_TOKEN! });
      assert.deepEqual([again.body.resealed_model_credentials, again.body.current_model_credentials], [0, 1]);
    } finally {
      await replica.api.stop();
    }
    stack.env.SECRETS_KEY = newKey;
    await stack.startWorker();
    const before = anthropic.requests.length;
    const finished = await run(own, versionId);
    assert.equal(finished.status, 'succeeded', finished.error);
    assert.equal(keyOf(anthropic.requests[before]!.headers), ORG_ANTHROPIC_KEY);
  });
});
