import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { Http, type HttpResponse } from '../support/http';
import { testInfra } from '../support/infra';
import { Stack, type AppProcess } from '../support/stack';
import { createOrg } from '../support/tenant';
import { pause } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

/** Per-key rate limits (shared by two API replicas on one database) and per-organisation caps. */
describe('limits', () => {
  let stack: Stack;
  let replica: { api: AppProcess; url: string };
  let http: Http;
  let http2: Http;
  let receiver: WebhookReceiver;
  const admin = () => testInfra().adminToken;

  const expectError = (response: HttpResponse, status: number, code: string) => {
    assert.equal(response.status, status, `${response.text} (${response.headers.get('error-detail')})`);
    assert.deepEqual(response.body, { error: code });
  };
  const header = (response: HttpResponse, name: string) => response.headers.get(name);
  const int = (response: HttpResponse, name: string) => {
    const value = header(response, name);
    assert.match(value ?? '', /^\d+$/, `${name}: ${value}`);
    return Number(value);
  };

  /** A `*` key of the organisation, with its own rate limit when one is given (set before its first use). */
  const issueKey = async (orgId: string, rate?: { rate_limit_per_second: number | null; rate_limit_burst: number | null }) => {
    const issued = await http.post(`/admin/v1/orgs/${orgId}/api-keys`, { token: admin(), body: { name: 'limits', scopes: ['*'] } });
    assert.equal(issued.status, 201, issued.text);
    if (rate) {
      const updated = await http.patch(`/admin/v1/api-keys/${issued.body.key_id}`, { token: admin(), body: rate });
      assert.equal(updated.status, 200, updated.text);
      assert.equal(updated.body.rate_limit_per_second, rate.rate_limit_per_second);
      assert.equal(updated.body.rate_limit_burst, rate.rate_limit_burst);
    }
    return { key: issued.body.api_key as string, keyId: issued.body.key_id as string };
  };
  const setOrgLimits = async (orgId: string, body: Record<string, unknown>) => {
    const response = await http.patch(`/admin/v1/orgs/${orgId}/limits`, { token: admin(), body });
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  const listRequest = (client: Http, key: string) => client.get('/api/v1/webhook-endpoints?limit=1', { token: key });
  const createEndpoint = (orgId: string, key: string, path = '/hook') =>
    http.post('/api/v1/webhook-endpoints', { token: key, body: { org_id: orgId, url: `${receiver.baseUrl}${path}` } });

  before(async () => {
    receiver = await WebhookReceiver.start();
    stack = await Stack.start({ env: { WEBHOOK_ALLOWED_PRIVATE_TARGETS: 'loopback', RATE_LIMIT_PER_SECOND: '40', RATE_LIMIT_BURST: '80' } });
    replica = await stack.startApiReplica();
    http = new Http(stack.url);
    http2 = new Http(replica.url);
  });
  after(async () => {
    await Promise.all([stack?.stop(), replica?.api.stop()]);
    await receiver?.stop();
  });

  describe('per API key', () => {
    it('past its rate a key gets 429 rate_limited with Retry-After and RateLimit-*; another key of the org is unaffected', async () => {
      const orgId = await createOrg(http);
      const limited = await issueKey(orgId, { rate_limit_per_second: 5, rate_limit_burst: 5 });
      const other = await issueKey(orgId);

      const first = await listRequest(http, limited.key);
      assert.equal(first.status, 200, first.text);
      assert.equal(int(first, 'ratelimit-limit'), 5);
      assert.ok(int(first, 'ratelimit-remaining') <= 4);
      assert.ok(int(first, 'ratelimit-reset') <= 1);

      const burst = await Promise.all(Array.from({ length: 12 }, () => listRequest(http, limited.key)));
      const refused = burst.filter((response) => response.status === 429);
      assert.ok(refused.length >= 2, `statuses ${burst.map((response) => response.status)}`);
      const rejection = refused[0]!;
      expectError(rejection, 429, 'rate_limited');
      assert.equal(int(rejection, 'retry-after'), 1);
      assert.equal(int(rejection, 'ratelimit-limit'), 5);
      assert.equal(int(rejection, 'ratelimit-remaining'), 0);
      assert.ok(int(rejection, 'ratelimit-reset') <= 1);
      assert.match(header(rejection, 'error-detail') ?? '', /5 requests per second, 5 at once/);

      const neighbour = await listRequest(http, other.key);
      assert.equal(neighbour.status, 200, neighbour.text);
      assert.equal(int(neighbour, 'ratelimit-limit'), 80, 'the configured default burst');

      // What is under test: a client that waits what Retry-After says is let in again.
      await pause(int(rejection, 'retry-after') * 1000 + 100);
      assert.equal((await listRequest(http, limited.key)).status, 200, 'allowed again after Retry-After');
    });

    it('holds across two API processes on one database: requests split over both replicas share one limit', async () => {
      const orgId = await createOrg(http);
      // 1 request per second, a burst of 10: 10 at once, then 1 per new second.
      const { key } = await issueKey(orgId, { rate_limit_per_second: 1, rate_limit_burst: 10 });
      const started = Date.now();
      const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => listRequest(i % 2 === 0 ? http : http2, key)));
      const elapsedSeconds = (Date.now() - started) / 1000;
      const byReplica = [0, 1].map((replicaIndex) => responses.filter((_, i) => i % 2 === replicaIndex));
      const passed = responses.filter((response) => response.status === 200).length;
      assert.deepEqual([...new Set(responses.map((response) => response.status))].sort(), [200, 429]);
      assert.ok(passed >= 10, `${passed} passed`);
      // Limited per process, each replica would have let 10 through: together at least 20.
      assert.ok(passed <= 10 + Math.ceil(elapsedSeconds), `${passed} passed in ${elapsedSeconds} s; the limit is 10 + 1/s`);
      for (const [index, served] of byReplica.entries()) {
        assert.ok(
          served.some((response) => response.status === 429),
          `replica ${index + 1} refused none`,
        );
      }
    });

    it('is set per key by the admin API, shown in the key view, and null goes back to the default', async () => {
      const orgId = await createOrg(http);
      const { key, keyId } = await issueKey(orgId, { rate_limit_per_second: 7, rate_limit_burst: 9 });
      const listed = await http.get(`/admin/v1/orgs/${orgId}/api-keys`, { token: admin() });
      assert.deepEqual(
        listed.body.data.map((view: any) => [view.rate_limit_per_second, view.rate_limit_burst]),
        [[7, 9]],
      );
      assert.equal(int(await listRequest(http, key), 'ratelimit-limit'), 9, 'its burst: the bucket');

      const onlyBurst = await http.patch(`/admin/v1/api-keys/${keyId}`, { token: admin(), body: { rate_limit_burst: 20 } });
      assert.deepEqual([onlyBurst.body.rate_limit_per_second, onlyBurst.body.rate_limit_burst], [7, 20], 'an absent field is unchanged');
      const reset = await http.patch(`/admin/v1/api-keys/${keyId}`, {
        token: admin(),
        body: { rate_limit_per_second: null, rate_limit_burst: null },
      });
      assert.equal(reset.status, 200, reset.text);
      assert.deepEqual([reset.body.rate_limit_per_second, reset.body.rate_limit_burst], [null, null]);
      assert.equal(int(await listRequest(http, key), 'ratelimit-limit'), 80, 'the process that changed it applies it at once');

      for (const body of [
        { rate_limit_per_second: 0 },
        { rate_limit_per_second: 2.5 },
        { rate_limit_burst: '10' },
        { rate_limit_per_second: 10, rate_limit_burst: 5 },
        { rate_limit_per_second: 10, other: 1 },
      ]) {
        expectError(await http.patch(`/admin/v1/api-keys/${keyId}`, { token: admin(), body }), 400, 'invalid_request');
      }
      expectError(await http.patch(`/admin/v1/api-keys/${randomUUID()}`, { token: admin(), body: { rate_limit_per_second: 5 } }), 404, 'not_found');
      expectError(await http.patch(`/admin/v1/api-keys/${keyId}`, { token: key, body: { rate_limit_per_second: 5 } }), 401, 'invalid_api_key');

      // A revoked key is gone for every change, as for a roll (schemathesis: "deleted resource still available").
      assert.equal((await http.delete(`/admin/v1/api-keys/${keyId}`, { token: admin() })).status, 200);
      expectError(await http.patch(`/admin/v1/api-keys/${keyId}`, { token: admin(), body: { rate_limit_per_second: 5 } }), 404, 'not_found');
      expectError(await http.post(`/admin/v1/api-keys/${keyId}/roll`, { token: admin(), body: {} }), 404, 'not_found');
    });

    it('leaves admin-token and public routes alone', async () => {
      const health = await http.get('/healthz');
      assert.equal(health.status, 200);
      assert.equal(header(health, 'ratelimit-limit'), null);
      const orgs = await http.get('/admin/v1/orgs?limit=1', { token: admin() });
      assert.equal(orgs.status, 200);
      assert.equal(header(orgs, 'ratelimit-limit'), null);
    });
  });

  describe('the operator CLI', () => {
    const pylon = async (...args: string[]) =>
      (
        await promisify(execFile)(process.execPath, [join(__dirname, '..', '..', 'apps', 'cli', 'main.js'), ...args], {
          env: { ...process.env, PYLON_URL: stack.url, ADMIN_TOKEN: admin() },
        })
      ).stdout;

    it("shows and sets an organisation's limits, and a key's rate limit", async () => {
      const orgId = await createOrg(http);
      assert.match(await pylon('limits', 'show', '--org', orgId), /webhook_endpoints\s+20\s+\(default\)/);
      const set = await pylon('limits', 'set', '--org', orgId, '--webhook-endpoints', '50', '--test-events-per-minute', '3');
      assert.match(set, /webhook_endpoints\s+50\s+\(override\)/);
      assert.match(set, /test_events_per_minute\s+3\s+\(override\)/);
      assert.match(set, /inflight_deliveries_per_endpoint\s+100\s+\(default\)/);
      const weighted = await pylon('limits', 'set', '--org', orgId, '--dispatch-weight', '2.5', '--queued-runs', '500');
      assert.match(weighted, /dispatch_weight\s+2.5\s+\(override\)/);
      assert.match(weighted, /queued_runs\s+500\s+\(override\)/);
      assert.match(weighted, /queued_documents\s+1000\s+\(default\)/);
      assert.match(await pylon('limits', 'set', '--org', orgId, '--webhook-endpoints', 'default'), /webhook_endpoints\s+20\s+\(default\)/);

      const { keyId } = await issueKey(orgId);
      assert.match(await pylon('key', 'rate-limit', keyId, '--per-second', '100', '--burst', '200'), /100\/s burst 200/);
      assert.match(await pylon('key', 'list', '--org', orgId), /100\/s burst 200/);
      assert.match(await pylon('key', 'rate-limit', keyId, '--per-second', 'default', '--burst', 'default'), /default rate/);
      await assert.rejects(pylon('key', 'rate-limit', keyId, '--per-second', 'fast'), /--per-second must be a positive number or "default"/);
      await assert.rejects(pylon('limits', 'set', '--org', orgId), /give at least one of/);
    });
  });

  describe('per organisation', () => {
    it('caps webhook endpoints: past the cap 409 limit_exceeded saying so, and concurrent creates never pass it', async () => {
      const orgId = await createOrg(http);
      const { key } = await issueKey(orgId);
      const limits = await setOrgLimits(orgId, { webhook_endpoints: 2 });
      assert.equal(limits.webhook_endpoints, 2);
      assert.equal(limits.overrides.webhook_endpoints, 2);

      for (const path of ['/one', '/two']) assert.equal((await createEndpoint(orgId, key, path)).status, 201);
      const third = await createEndpoint(orgId, key, '/three');
      expectError(third, 409, 'limit_exceeded');
      assert.match(header(third, 'error-detail') ?? '', /this organisation has 2 webhook endpoints, its limit is 2/);

      await setOrgLimits(orgId, { webhook_endpoints: 5 });
      const concurrent = await Promise.all(Array.from({ length: 8 }, (_, i) => createEndpoint(orgId, key, `/race/${i}`)));
      const statuses = concurrent.map((response) => response.status).sort();
      assert.deepEqual(statuses, [201, 201, 201, 409, 409, 409, 409, 409]);
      const listed = await http.get('/api/v1/webhook-endpoints?limit=100', { token: key });
      assert.equal(listed.body.data.length, 5);

      const reset = await setOrgLimits(orgId, { webhook_endpoints: null });
      assert.equal(reset.webhook_endpoints, 20, 'the default WEBHOOK_MAX_ENDPOINTS');
      assert.equal(reset.overrides.webhook_endpoints, null);
      assert.equal((await createEndpoint(orgId, key, '/after-reset')).status, 201);
    });

    it('caps test events per minute: past it 429 rate_limited with Retry-After (waiting cures it); another organisation is unaffected', async () => {
      const orgId = await createOrg(http);
      const { key } = await issueKey(orgId);
      await setOrgLimits(orgId, { test_events_per_minute: 2 });
      const endpoint = await createEndpoint(orgId, key, '/tests');
      assert.equal(endpoint.status, 201, endpoint.text);
      const sendTest = (token: string, endpointId: string) => http.post(`/api/v1/webhook-endpoints/${endpointId}/test`, { token });

      for (let i = 0; i < 2; i++) assert.equal((await sendTest(key, endpoint.body.endpoint_id)).status, 202);
      const third = await sendTest(key, endpoint.body.endpoint_id);
      expectError(third, 429, 'rate_limited');
      const retryAfter = int(third, 'retry-after');
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      assert.match(header(third, 'error-detail') ?? '', /2 test events per minute/);
      expectError(await sendTest(key, randomUUID()), 404, 'not_found');

      const otherOrg = await createOrg(http);
      const otherKey = (await issueKey(otherOrg)).key;
      const otherEndpoint = await createEndpoint(otherOrg, otherKey, '/other-tests');
      assert.equal((await sendTest(otherKey, otherEndpoint.body.endpoint_id)).status, 202);
      await receiver.waitFor('/tests', 2);
    });

    it('admin GET/PATCH limits: effective values and overrides, partial updates, validation, unknown org', async () => {
      const orgId = await createOrg(http);
      const initial = await http.get(`/admin/v1/orgs/${orgId}/limits`, { token: admin() });
      assert.equal(initial.status, 200, initial.text);
      assert.deepEqual(initial.body, {
        org_id: orgId,
        webhook_endpoints: 20,
        test_events_per_minute: 10,
        inflight_deliveries_per_endpoint: 100,
        dispatch_weight: 1,
        queued_runs: 10_000,
        queued_documents: 1_000,
        overrides: {
          webhook_endpoints: null,
          test_events_per_minute: null,
          inflight_deliveries_per_endpoint: null,
          dispatch_weight: null,
          queued_runs: null,
          queued_documents: null,
        },
        updated_at: null,
      });

      await setOrgLimits(orgId, { inflight_deliveries_per_endpoint: 7, test_events_per_minute: 3, dispatch_weight: 0.5 });
      const updated = await setOrgLimits(orgId, { test_events_per_minute: null });
      assert.equal(updated.inflight_deliveries_per_endpoint, 7, 'an absent field is unchanged');
      assert.equal(updated.test_events_per_minute, 10);
      assert.equal(updated.dispatch_weight, 0.5);
      assert.deepEqual(updated.overrides, {
        webhook_endpoints: null,
        test_events_per_minute: null,
        inflight_deliveries_per_endpoint: 7,
        dispatch_weight: 0.5,
        queued_runs: null,
        queued_documents: null,
      });
      assert.ok(updated.updated_at);
      assert.deepEqual((await http.get(`/admin/v1/orgs/${orgId}/limits`, { token: admin() })).body, updated);

      for (const body of [
        { webhook_endpoints: 0 },
        { webhook_endpoints: -3 },
        { test_events_per_minute: 1.5 },
        { inflight_deliveries_per_endpoint: 'ten' },
        { agent_runs_per_second: 5 },
        { dispatch_weight: 0 },
        { dispatch_weight: -1 },
        { dispatch_weight: 5e-324 },
        { dispatch_weight: 1_001 },
        { dispatch_weight: '2' },
        { queued_runs: 2.5 },
        { queued_documents: 0 },
        { webhook_endpoints: 10_000_000 },
        { webhook_endpoints: 5, endpoints: 5 },
      ]) {
        expectError(await http.patch(`/admin/v1/orgs/${orgId}/limits`, { token: admin(), body }), 400, 'invalid_request');
      }
      expectError(
        await http.patch(`/admin/v1/orgs/${orgId}/limits`, { token: admin(), rawBody: '[1]', headers: { 'content-type': 'application/json' } }),
        400,
        'invalid_request',
      );
      expectError(await http.get('/admin/v1/orgs/not-a-uuid/limits', { token: admin() }), 400, 'invalid_request');
      expectError(await http.get(`/admin/v1/orgs/${randomUUID()}/limits`, { token: admin() }), 404, 'not_found');
      expectError(await http.patch(`/admin/v1/orgs/${randomUUID()}/limits`, { token: admin(), body: { webhook_endpoints: 3 } }), 404, 'not_found');
      expectError(await http.get(`/admin/v1/orgs/${orgId}/limits`), 401, 'missing_api_key');
    });
  });
});
