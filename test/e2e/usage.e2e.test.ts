import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeOpenAi } from '../support/fake-openai';
import { Http } from '../support/http';
import { grantTokens } from '../support/ledger';
import { Stack } from '../support/stack';
import { createKey, createTenant, createVersion, ingestDocument, waitForRun, type Tenant } from '../support/tenant';
import { holdsFor, until } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

const VIDEO_COST = 500_000;
const FLUSH_MS = 200;

/**
 * `GET /api/v1/usage`: an organisation's runs, documents, videos, deliveries and tokens over 24 h and 30 days,
 * its failing endpoints and newest failures, and each key's requests, made here through the real API and
 * worker and then read back exactly; each section only for a key with its scope; never another organisation's.
 */
describe('usage', () => {
  let stack: Stack;
  let http: Http;
  let fake: FakeOpenAi;
  let receiver: WebhookReceiver;
  let tenant: Tenant;
  let other: Tenant;
  const ids = { succeeded: [] as string[], failed: '', cancelled: '', failedDelivery: '', okEndpoint: '', goneEndpoint: '' };

  const usage = (key: string, query = '') => http.get(`/api/v1/usage${query}`, { token: key });
  const expectError = (response: { status: number; body: unknown; text: string }, status: number, code: string) => {
    assert.equal(response.status, status, response.text);
    assert.deepEqual(response.body, { error: code });
  };
  const createRun = async (owner: Tenant, versionId = owner.versionId) => {
    const created = await http.post('/api/v1/agent-runs', {
      token: owner.key,
      body: { org_id: owner.orgId, agent_version_id: versionId, input: 'What is Pylon?' },
    });
    assert.equal(created.status, 200, created.text);
    return created.body.run_id as string;
  };
  const addEndpoint = async (path: string, events: string[]) => {
    const created = await http.post('/api/v1/webhook-endpoints', {
      token: tenant.key,
      body: { org_id: tenant.orgId, url: `${receiver.baseUrl}${path}`, events },
    });
    assert.equal(created.status, 201, created.text);
    return created.body.endpoint_id as string;
  };

  before(async () => {
    fake = await FakeOpenAi.start();
    receiver = await WebhookReceiver.start();
    stack = await Stack.start({
      env: {
        OPENAI_API_KEY: 'sk-test-fake',
        OPENAI_BASE_URL: fake.baseUrl,
        WEBHOOK_ALLOWED_PRIVATE_TARGETS: 'loopback',
        VIDEO_PROVIDER: 'local',
        LOCAL_RENDER_SECONDS: '1',
        API_KEY_USAGE_FLUSH_MS: String(FLUSH_MS),
      },
    });
    http = new Http(stack.url);
    [tenant, other] = [await createTenant(http), await createTenant(http)];

    // Webhooks: every succeeded run delivered to /ok; a test event to /gone answered 410, so that delivery fails.
    ids.okEndpoint = await addEndpoint('/ok', ['agent_run.succeeded']);
    ids.goneEndpoint = await addEndpoint('/gone', ['video_generation.failed']);
    receiver.respond('/gone', 410);
    assert.equal((await http.post(`/api/v1/webhook-endpoints/${ids.goneEndpoint}/test`, { token: tenant.key })).status, 202);

    // Runs: three succeed, one fails (the model answers 400), one is cancelled while its model call is open.
    for (let i = 0; i < 3; i++) ids.succeeded.push(await createRun(tenant));
    const failing = await createVersion(http, tenant.key, tenant.agentId, { model: 'openai/no-such-model' });
    fake.answerModel('no-such-model', { status: 400, errorMessage: 'The model `no-such-model` does not exist' });
    ids.failed = await createRun(tenant, failing);
    assert.equal((await waitForRun(http, tenant.key, ids.failed)).run.status, 'failed');
    const slow = await createVersion(http, tenant.key, tenant.agentId, { model: 'openai/slow' });
    fake.enqueue({ holdOpen: true, content: 'The first words, and then nothing more.' });
    ids.cancelled = await createRun(tenant, slow);
    await until(
      'the run to cancel running',
      async () => (await http.get(`/api/v1/agent-runs/${ids.cancelled}`, { token: tenant.key })).body.status === 'running',
      { timeoutMs: 10_000, intervalMs: 50 },
    );
    assert.equal((await http.post(`/api/v1/agent-runs/${ids.cancelled}/cancel`, { token: tenant.key })).status, 202);
    for (const runId of [...ids.succeeded, ids.cancelled]) await waitForRun(http, tenant.key, runId);

    // Two documents, a video paid from a grant; another organisation's run beside it all.
    for (const title of ['One', 'Two'])
      assert.equal((await ingestDocument(http, tenant, { title, content: `# ${title}\n\nPylon.` })).status, 'ready');
    await grantTokens(http, tenant.orgId, VIDEO_COST);
    const video = await http.post('/v1/video-gen/generations', { token: tenant.key, body: { user_prompt: 'A lighthouse at dawn' } });
    assert.equal(video.status, 201, video.text);
    await until(
      'the video completed',
      async () => (await http.get(`/v1/video-gen/generation?ids=${video.body.id}`, { token: tenant.key })).body[0]?.state === 'completed',
      { timeoutMs: 60_000 },
    );
    await waitForRun(http, other.key, await createRun(other));

    // Every delivery settled: three delivered to /ok, the one to /gone failed.
    await receiver.waitFor('/ok', 3);
    const failed = await until(
      'the delivery to /gone failed',
      async () => {
        const log = await http.get(`/api/v1/webhook-endpoints/${ids.goneEndpoint}/deliveries`, { token: tenant.key });
        return log.body.data?.[0]?.status === 'failed' && (log.body.data[0] as { delivery_id: string });
      },
      { timeoutMs: 20_000 },
    );
    ids.failedDelivery = failed.delivery_id;
    await until(
      'the three deliveries to /ok delivered',
      async () => {
        const log = await http.get(`/api/v1/webhook-endpoints/${ids.okEndpoint}/deliveries`, { token: tenant.key });
        return log.body.data?.length === 3 && log.body.data.every((delivery: { status: string }) => delivery.status === 'delivered');
      },
      { timeoutMs: 20_000 },
    );
  });
  after(async () => {
    await stack?.stop();
    await fake?.stop();
    await receiver?.stop();
  });

  it('counts exactly what the organisation did, in both windows, with the success rate and run durations', async () => {
    const response = await usage(tenant.key);
    assert.equal(response.status, 200, response.text);
    const report = response.body;
    assert.deepEqual(Object.keys(report).sort(), ['api_keys', 'failing_endpoints', 'generated_at', 'org_id', 'recent_failures', 'windows']);
    assert.equal(report.org_id, tenant.orgId);
    const generatedAt = Date.parse(report.generated_at);
    assert.ok(Math.abs(generatedAt - Date.now()) < 10_000);
    assert.deepEqual(
      report.windows.map((window: { window: string; since: string }) => [window.window, generatedAt - Date.parse(window.since)]),
      [
        ['24h', 86_400_000],
        ['30d', 30 * 86_400_000],
      ],
    );
    for (const window of report.windows) {
      const { runs, models, ...rest } = window;
      const { duration_ms: duration, ...counts } = runs;
      // Each succeeded run took at least one model turn; the models it ran are free here.
      assert.ok(models.turns >= 3 && models.input_tokens > 0 && models.output_tokens > 0, JSON.stringify(models));
      assert.equal(models.run_cost_tokens, 0);
      assert.deepEqual(counts, { total: 5, succeeded: 3, failed: 1, cancelled: 1, in_progress: 0, success_rate: 0.6 });
      assert.ok(duration.p50 > 0 && duration.p50 <= duration.p95, JSON.stringify(duration));
      assert.ok(duration.p95 < 60_000, JSON.stringify(duration));
      assert.deepEqual(rest, {
        window: window.window,
        since: window.since,
        documents: { total: 2, ready: 2, failed: 0, processing: 0 },
        videos: { total: 1, completed: 1, failed: 0, in_progress: 0 },
        deliveries: { total: 4, delivered: 3, failed: 1, pending: 0 },
        tokens: { granted: VIDEO_COST, debited: VIDEO_COST, refunded: 0 },
      });
    }
  });

  it('lists the failing endpoint and the newest failures with their reasons; a cancelled run is not a failure', async () => {
    const report = (await usage(tenant.key)).body;
    assert.equal(report.failing_endpoints.length, 1, JSON.stringify(report.failing_endpoints));
    const [endpoint] = report.failing_endpoints;
    assert.deepEqual(
      { ...endpoint, last_failure_at: typeof endpoint.last_failure_at },
      {
        endpoint_id: ids.goneEndpoint,
        url: `${receiver.baseUrl}/gone`,
        enabled: false,
        failed_24h: 1,
        failed_deliveries_24h: 1,
        last_failure_at: 'string',
        last_error: endpoint.last_error,
      },
    );
    assert.equal(endpoint.last_error, 'HTTP 410');
    assert.ok(Date.now() - Date.parse(endpoint.last_failure_at) < 600_000);

    const failures = report.recent_failures as Array<{ kind: string; id: string; reason: string; at: string }>;
    assert.deepEqual(
      failures.map((failure) => [failure.kind, failure.id]).sort(),
      [
        ['agent_run', ids.failed],
        ['webhook_delivery', ids.failedDelivery],
      ].sort(),
    );
    const run = failures.find((failure) => failure.kind === 'agent_run')!;
    assert.match(run.reason, /OpenAI answered 400: .*no-such-model/);
    assert.ok(failures.find((failure) => failure.kind === 'webhook_delivery')!.reason, 'the delivery says why it failed');
    assert.deepEqual(
      failures.map((failure) => failure.at),
      failures
        .map((failure) => failure.at)
        .sort()
        .reverse(),
      'newest first',
    );
  });

  it("counts each key's requests (written by the flusher) and shows its last use; a revoked key is not listed", async () => {
    const counted = await createKey(http, tenant.orgId, ['runs:read']);
    const revoked = await createKey(http, tenant.orgId, ['runs:read']);
    const revokedId = (await http.get('/api/v1/whoami', { token: revoked })).body.key_id as string;
    assert.equal((await http.delete(`/api/v1/api-keys/${revokedId}`, { token: tenant.key })).status, 200);
    const countedId = (await http.get('/api/v1/whoami', { token: counted })).body.key_id as string;
    for (let i = 0; i < 4; i++) assert.equal((await usage(counted)).status, 200);
    assert.equal((await http.get('/api/v1/agent-runs', { token: counted })).status, 200);
    assert.equal((await http.get('/api/v1/tokens/balance', { token: counted })).status, 403, 'refused for its scope, but counted');
    const made = 1 + 4 + 1 + 1;

    const countedRow = async () => {
      const report = (await usage(tenant.key)).body;
      assert.ok(!report.api_keys.some((key: { key_id: string }) => key.key_id === revokedId), 'the revoked key is not listed');
      return report.api_keys.find((key: { key_id: string }) => key.key_id === countedId);
    };
    await until("the key's requests written", async () => (await countedRow()).requests_30d >= made, { timeoutMs: 10_000, intervalMs: FLUSH_MS });
    // An absence: over three more flushes, no request is counted twice (on the cluster topology, by either replica).
    await holdsFor('the count at what the key made', 3 * FLUSH_MS, async () => (await countedRow()).requests_30d === made, FLUSH_MS / 2);
    const row = await countedRow();
    assert.deepEqual(
      { ...row, last_used_at: typeof row.last_used_at },
      { key_id: countedId, name: 'key runs:read', hint: row.hint, requests_24h: made, requests_30d: made, last_used_at: 'string' },
    );
    assert.match(row.hint, /^pyl_/);
    const all = (await usage(tenant.key)).body.api_keys as Array<{ requests_24h: number }>;
    assert.ok(all.every((key) => Number.isInteger(key.requests_24h) && key.requests_24h >= 0));
  });

  it('a key sees only the sections its scopes read', async () => {
    const runsOnly = (await usage(await createKey(http, tenant.orgId, ['runs:read']))).body;
    assert.deepEqual(Object.keys(runsOnly).sort(), ['generated_at', 'org_id', 'recent_failures', 'windows']);
    for (const window of runsOnly.windows) assert.deepEqual(Object.keys(window).sort(), ['models', 'runs', 'since', 'window']);
    assert.deepEqual(
      runsOnly.recent_failures.map((failure: { kind: string }) => failure.kind),
      ['agent_run'],
    );

    const none = await usage(await createKey(http, tenant.orgId, ['agents:manage']));
    assert.equal(none.status, 200, none.text);
    assert.deepEqual(Object.keys(none.body).sort(), ['generated_at', 'org_id', 'windows']);
    for (const window of none.body.windows) assert.deepEqual(Object.keys(window).sort(), ['since', 'window']);

    const webhooksAndKeys = (await usage(await createKey(http, tenant.orgId, ['webhooks:manage', 'keys:manage']))).body;
    assert.deepEqual(Object.keys(webhooksAndKeys).sort(), ['api_keys', 'failing_endpoints', 'generated_at', 'org_id', 'recent_failures', 'windows']);
    for (const window of webhooksAndKeys.windows) assert.deepEqual(Object.keys(window).sort(), ['deliveries', 'since', 'window']);
    assert.deepEqual(
      webhooksAndKeys.recent_failures.map((failure: { kind: string }) => failure.kind),
      ['webhook_delivery'],
    );
  });

  it("never counts another organisation's work", async () => {
    const report = (await usage(other.key)).body;
    assert.equal(report.org_id, other.orgId);
    for (const window of report.windows) {
      assert.deepEqual(
        { ...window.runs, duration_ms: null },
        { total: 1, succeeded: 1, failed: 0, cancelled: 0, in_progress: 0, success_rate: 1, duration_ms: null },
      );
      assert.deepEqual(window.documents, { total: 0, ready: 0, failed: 0, processing: 0 });
      assert.deepEqual(window.deliveries, { total: 0, delivered: 0, failed: 0, pending: 0 });
      assert.deepEqual(window.tokens, { granted: 0, debited: 0, refunded: 0 });
    }
    assert.deepEqual(report.failing_endpoints, []);
    assert.deepEqual(report.recent_failures, []);
    assert.equal(report.api_keys.length, 1, 'its own key only');
  });

  it('org_id: its own is fine; another organisation → 403 like the tokens endpoint; unknown parameters and no key are refused', async () => {
    assert.equal((await usage(tenant.key, `?org_id=${tenant.orgId}`)).status, 200);
    assert.equal((await usage(tenant.key, `?org_id=${tenant.orgId.toUpperCase()}`)).status, 200);
    const foreign = await usage(tenant.key, `?org_id=${other.orgId}`);
    const tokens = await http.get(`/api/v1/tokens/balance?org_id=${other.orgId}`, { token: tenant.key });
    expectError(foreign, 403, 'insufficient_scope');
    assert.deepEqual([foreign.status, foreign.body], [tokens.status, tokens.body]);
    expectError(await usage(tenant.key, '?org_id=not-a-uuid'), 400, 'invalid_request');
    expectError(await usage(tenant.key, '?window=7d'), 400, 'invalid_request');
    expectError(await http.get('/api/v1/usage'), 401, 'missing_api_key');
    expectError(await usage('pyl_not_a_key'), 401, 'invalid_api_key');
  });
});
