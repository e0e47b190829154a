import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { sql } from '../support/db';
import { Http } from '../support/http';
import { grantTokens } from '../support/ledger';
import { Stack } from '../support/stack';
import { createKey, createTenant, ingestDocument, waitForRun, type Tenant } from '../support/tenant';
import { holdsFor, pause, until } from '../support/wait';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';

const ENDPOINT_FIELDS = [
  'created_at',
  'description',
  'disabled_reason',
  'enabled',
  'endpoint_id',
  'events',
  'org_id',
  'previous_secret_expires_at',
  'updated_at',
  'url',
];

describe('signed webhooks', () => {
  let stack: Stack;
  let strict: Stack;
  let http: Http;
  let receiver: WebhookReceiver;
  let tenant: Tenant;

  const addEndpoint = async (path: string, extra: Record<string, unknown> = {}, owner: Tenant = tenant) => {
    const response = await http.post('/api/v1/webhook-endpoints', {
      token: owner.key,
      body: { org_id: owner.orgId, url: `${receiver.baseUrl}${path}`, ...extra },
    });
    assert.equal(response.status, 201, response.text);
    return response.body as { endpoint_id: string; secret: string };
  };
  const verify = (secret: string, webhook: ReceivedWebhook) =>
    new Webhook(secret).verify(webhook.body, {
      'webhook-id': String(webhook.headers['webhook-id']),
      'webhook-timestamp': String(webhook.headers['webhook-timestamp']),
      'webhook-signature': String(webhook.headers['webhook-signature']),
    });
  const runOnce = async (owner: Tenant = tenant) => {
    const created = await http.post('/api/v1/agent-runs', {
      token: owner.key,
      body: { org_id: owner.orgId, agent_version_id: owner.versionId, input: 'hello hooks' },
    });
    return (await waitForRun(http, owner.key, created.body.run_id)).run;
  };
  const deliveriesOf = async (endpointId: string, owner: Tenant = tenant) =>
    (await http.get(`/api/v1/webhook-endpoints/${endpointId}/deliveries?limit=100`, { token: owner.key })).body.data as any[];
  /**
   * The endpoint's delivery log once `done` holds for it: the receiver has a delivery a moment before the worker
   * records how it was answered.
   */
  const deliveriesWhen = (endpointId: string, owner: Tenant, what: string, done: (deliveries: any[]) => boolean) =>
    until(
      what,
      async () => {
        const deliveries = await deliveriesOf(endpointId, owner);
        return done(deliveries) && deliveries;
      },
      { timeoutMs: 20_000 },
    );
  /** How long a test watches for a delivery that must not come (a repeat, or one to an endpoint that must not get it). */
  const ABSENCE_MS = 1_500;

  before(async () => {
    receiver = await WebhookReceiver.start();
    [stack, strict] = await Promise.all([
      Stack.start({ env: { WEBHOOK_ALLOWED_PRIVATE_TARGETS: 'loopback', VIDEO_PROVIDER: 'local', LOCAL_RENDER_SECONDS: '1' } }),
      Stack.start({ env: { WEBHOOK_ALLOWED_PRIVATE_TARGETS: '' } }),
    ]);
    http = new Http(stack.url);
    tenant = await createTenant(http);
  });
  after(async () => {
    await Promise.all([stack?.stop(), strict?.stop()]);
    await receiver?.stop();
  });

  it('an endpoint is created with its whsec_ secret shown once; reading it never shows the secret', async () => {
    const created = await addEndpoint('/shown-once', { description: 'ops' });
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/=]{32}$/);
    const read = await http.get(`/api/v1/webhook-endpoints/${created.endpoint_id}`, { token: tenant.key });
    assert.deepEqual(Object.keys(read.body).sort(), ENDPOINT_FIELDS);
    const list = await http.get('/api/v1/webhook-endpoints', { token: tenant.key });
    assert.ok(list.body.data.every((endpoint: any) => !('secret' in endpoint)));
    const deleted = await http.delete(`/api/v1/webhook-endpoints/${created.endpoint_id}`, { token: tenant.key });
    assert.equal(deleted.status, 204);
  });

  it('an agent run delivers one signed agent_run.succeeded, verified by the standardwebhooks package, carrying the run as the API returns it', async () => {
    const endpoint = await addEndpoint('/runs');
    const run = await runOnce();
    const [webhook] = await receiver.waitFor('/runs', 1);
    assert.equal(webhook!.headers['content-type'], 'application/json');
    const payload = verify(endpoint.secret, webhook!) as any;
    assert.equal(payload.type, 'agent_run.succeeded');
    assert.deepEqual(Object.keys(payload).sort(), ['created_at', 'data', 'id', 'type']);
    assert.equal(webhook!.headers['webhook-id'], payload.id);
    const current = await http.get(`/api/v1/agent-runs/${run.run_id}`, { token: tenant.key });
    assert.deepEqual(payload.data, current.body);
    await holdsFor('exactly one delivery', ABSENCE_MS, () => receiver.at('/runs').length === 1);
    const [delivery] = await deliveriesOf(endpoint.endpoint_id);
    assert.equal(delivery.status, 'delivered');
    assert.equal(delivery.attempts.length, 1);
    assert.equal(delivery.attempts[0].status_code, 200);
    assert.equal(delivery.attempts[0].response_excerpt, 'ok');
    await http.delete(`/api/v1/webhook-endpoints/${endpoint.endpoint_id}`, { token: tenant.key });
  });

  it('event filtering: an endpoint gets only its subscribed types; one without a list gets all', async () => {
    const owner = await createTenant(http);
    const docsOnly = await addEndpoint('/filter-docs', { events: ['knowledge_document.ready'] }, owner);
    await addEndpoint('/filter-all', {}, owner);
    await runOnce(owner);
    const doc = await ingestDocument(http, owner, { title: 'Hooks', content: 'Webhooks are signed.' });
    const all = await receiver.waitFor('/filter-all', 2);
    const docs = await receiver.waitFor('/filter-docs', 1);
    assert.deepEqual(all.map((w) => w.json.type).sort(), ['agent_run.succeeded', 'knowledge_document.ready']);
    // An event's deliveries are all recorded before any is attempted: this log is all the endpoint will ever be sent.
    assert.deepEqual(
      (await deliveriesOf(docsOnly.endpoint_id, owner)).map((delivery) => delivery.event_type),
      ['knowledge_document.ready'],
    );
    assert.deepEqual(
      receiver.at('/filter-docs').map((w) => w.json.type),
      ['knowledge_document.ready'],
    );
    const current = await http.get(`/api/v1/knowledge/documents/${doc.doc_id}`, { token: owner.key });
    assert.deepEqual(docs[0]!.json.data, current.body);
  });

  it('a video generation delivers one video_generation.completed with the generation as the API returns it', async () => {
    const owner = await createTenant(http);
    await grantTokens(http, owner.orgId, 500_000);
    await addEndpoint('/video', { events: ['video_generation.completed', 'video_generation.failed'] }, owner);
    const created = await http.post('/v1/video-gen/generations', { token: owner.key, body: { user_prompt: 'hooked' } });
    assert.equal(created.status, 201);
    const [webhook] = await receiver.waitFor('/video', 1, 60_000);
    await holdsFor('exactly one delivery', ABSENCE_MS, () => receiver.at('/video').length === 1);
    assert.equal(webhook!.json.type, 'video_generation.completed');
    const [current] = (await http.get(`/v1/video-gen/generation?ids[0]=${created.body.id}`, { token: owner.key })).body;
    assert.deepEqual(webhook!.json.data, current);
  });

  it('secret rotation: during the grace period both the old and the new secret verify', async () => {
    const owner = await createTenant(http);
    const endpoint = await addEndpoint('/rotate', {}, owner);
    const rotated = await http.post(`/api/v1/webhook-endpoints/${endpoint.endpoint_id}/rotate-secret`, {
      token: owner.key,
      body: { grace_seconds: 3600 },
    });
    assert.equal(rotated.status, 200);
    assert.notEqual(rotated.body.secret, endpoint.secret);
    assert.ok(rotated.body.previous_secret_expires_at);
    await runOnce(owner);
    const [webhook] = await receiver.waitFor('/rotate', 1);
    assert.equal(String(webhook!.headers['webhook-signature']).split(' ').length, 2);
    assert.doesNotThrow(() => verify(endpoint.secret, webhook!));
    assert.doesNotThrow(() => verify(rotated.body.secret, webhook!));
    assert.throws(() => verify(`whsec_${Buffer.from(randomUUID()).toString('base64')}`, webhook!));
  });

  it('410 Gone disables the endpoint and fails the delivery; later events skip it', async () => {
    const owner = await createTenant(http);
    const endpoint = await addEndpoint('/gone', {}, owner);
    receiver.respond('/gone', 410);
    await runOnce(owner);
    await receiver.waitFor('/gone', 1);
    const { read, delivery } = await until('the 410 recorded', async () => {
      const endpointNow = await http.get(`/api/v1/webhook-endpoints/${endpoint.endpoint_id}`, { token: owner.key });
      const [only] = await deliveriesOf(endpoint.endpoint_id, owner);
      return endpointNow.body.enabled === false && only?.status !== 'pending' && { read: endpointNow, delivery: only };
    });
    assert.equal(delivery.status, 'failed');
    assert.equal(read.body.enabled, false);
    assert.match(read.body.disabled_reason, /410/);
    await runOnce(owner);
    await holdsFor('later events skip the disabled endpoint', ABSENCE_MS, () => receiver.at('/gone').length === 1);
  });

  it('a receiver that fails first recovers on the 5 s retry; every attempt is in the log; replay re-sends now', async () => {
    const owner = await createTenant(http);
    const endpoint = await addEndpoint('/flaky', {}, owner);
    receiver.respond('/flaky', 503);
    await runOnce(owner);
    const [first, second] = await receiver.waitFor('/flaky', 2, 20_000);
    assert.ok(second!.at - first!.at >= 4_500, `retried after ${second!.at - first!.at} ms`);
    assert.equal(first!.headers['webhook-id'], second!.headers['webhook-id'], 'the same message id on retries');
    const [delivery] = await deliveriesWhen(
      endpoint.endpoint_id,
      owner,
      'the retry recorded',
      ([only]) => only?.status !== 'pending' && only.attempts.length >= 2,
    );
    assert.equal(delivery.status, 'delivered');
    assert.deepEqual(
      delivery.attempts.map((attempt: any) => attempt.status_code),
      [503, 200],
    );
    assert.equal(delivery.attempts[0].response_excerpt, 'receiver says 503');
    const failedOnly = await http.get(`/api/v1/webhook-endpoints/${endpoint.endpoint_id}/deliveries?status=failed`, { token: owner.key });
    assert.deepEqual(failedOnly.body.data, []);

    const replay = await http.post(`/api/v1/webhook-endpoints/${endpoint.endpoint_id}/deliveries/${delivery.delivery_id}/retry`, {
      token: owner.key,
    });
    assert.equal(replay.status, 202);
    await receiver.waitFor('/flaky', 3);
    const [replayed] = await deliveriesWhen(endpoint.endpoint_id, owner, 'the replay recorded', ([only]) => only?.attempts.length >= 3);
    assert.equal(replayed.attempts.length, 3);
  });

  it('ids in upper case name the same endpoint, delivery and organisation: a replay re-sends the one delivery once', async () => {
    const owner = await createTenant(http);
    const endpoint = await addEndpoint('/upper-case', {}, owner);
    const created = await http.post('/api/v1/agent-runs', {
      token: owner.key,
      body: { org_id: owner.orgId.toUpperCase(), agent_version_id: owner.versionId.toUpperCase(), input: 'hello hooks' },
    });
    assert.equal(created.status, 200, created.text);
    await waitForRun(http, owner.key, created.body.run_id);
    await receiver.waitFor('/upper-case', 1);
    const [delivery] = await deliveriesWhen(endpoint.endpoint_id, owner, 'the delivery recorded', ([only]) => only?.attempts.length >= 1);

    const path = `/api/v1/webhook-endpoints/${endpoint.endpoint_id.toUpperCase()}/deliveries/${delivery.delivery_id.toUpperCase()}`;
    const read = await http.get(path, { token: owner.key });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.delivery_id, delivery.delivery_id);
    const replay = await http.post(`${path}/retry`, { token: owner.key });
    assert.equal(replay.status, 202, replay.text);
    await receiver.waitFor('/upper-case', 2);
    await holdsFor('the replay sent once', ABSENCE_MS, () => receiver.at('/upper-case').length === 2);
    const [replayed] = await deliveriesWhen(endpoint.endpoint_id, owner, 'the replay recorded', ([only]) => only?.attempts.length >= 2);
    assert.equal(replayed.attempts.length, 2);
  });

  it('send test event: one signed webhook_endpoint.test to that endpoint', async () => {
    const owner = await createTenant(http);
    const endpoint = await addEndpoint('/test-event', {}, owner);
    const sent = await http.post(`/api/v1/webhook-endpoints/${endpoint.endpoint_id}/test`, { token: owner.key });
    assert.equal(sent.status, 202);
    const [webhook] = await receiver.waitFor('/test-event', 1);
    assert.equal((verify(endpoint.secret, webhook!) as any).type, 'webhook_endpoint.test');
  });

  const sendTest = async (endpointId: string, owner: Tenant) => {
    const sent = await http.post(`/api/v1/webhook-endpoints/${endpointId}/test`, { token: owner.key });
    assert.equal(sent.status, 202, sent.text);
    return sent.body as { delivery_id: string; event_id: string; request: { body: string; headers: Record<string, string> } };
  };

  it("the log shows each delivery's request and every attempt's headers, as the receiver got them; never the secret", async () => {
    const owner = await createTenant(http);
    const endpoint = await addEndpoint('/log', {}, owner);
    receiver.respond('/log', 503);
    receiver.answerWithHeaders('/log', { 'x-receiver-trace': 'trace-42' });
    const sent = await sendTest(endpoint.endpoint_id, owner);
    assert.equal(sent.request.headers['webhook-id'], sent.event_id, 'the answer to a test event shows its request');
    const received = await receiver.waitFor('/log', 2, 20_000);
    const [delivery] = await deliveriesWhen(
      endpoint.endpoint_id,
      owner,
      'the retry recorded',
      ([only]) => only?.status !== 'pending' && only.attempts.length >= 2,
    );
    assert.equal(delivery.delivery_id, sent.delivery_id);
    assert.equal(delivery.status, 'delivered');
    assert.equal(delivery.request.body, received[0]!.body, 'the body shown is the bytes POSTed');
    assert.equal(delivery.request.body, received[1]!.body, 'the same bytes on every attempt');
    assert.deepEqual(delivery.request.headers, {
      'content-type': 'application/json',
      'user-agent': received[0]!.headers['user-agent'],
      'webhook-id': received[0]!.headers['webhook-id'],
    });
    assert.equal(delivery.request.headers['webhook-id'], delivery.event_id, 'the message id is the event id');
    assert.equal(delivery.attempts.length, 2);
    delivery.attempts.forEach((attempt: any, i: number) => {
      const got = received[i]!.headers;
      for (const name of ['content-type', 'user-agent', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-length'])
        assert.equal(attempt.request_headers[name], got[name], `attempt ${i + 1}'s ${name}`);
      assert.doesNotThrow(() => new Webhook(endpoint.secret).verify(delivery.request.body, attempt.request_headers));
      assert.equal(attempt.response_headers['x-receiver-trace'], 'trace-42');
      assert.equal(attempt.response_headers['content-type'], 'text/plain');
    });
    assert.deepEqual(
      delivery.attempts.map((attempt: any) => attempt.status_code),
      [503, 200],
    );
    assert.equal(delivery.attempts[0].response_excerpt, 'receiver says 503');
    const one = await http.get(`/api/v1/webhook-endpoints/${endpoint.endpoint_id}/deliveries/${delivery.delivery_id}`, { token: owner.key });
    assert.deepEqual(one.body, delivery);
    const secretKey = endpoint.secret.slice('whsec_'.length);
    assert.ok(!one.text.includes(secretKey), 'the secret is nowhere in the log');

    // Attempts recorded before headers were kept show null.
    await sql(`UPDATE webhook_attempts SET request_headers = NULL, response_headers = NULL WHERE delivery_id = $1 AND attempt_number = 1`, [
      delivery.delivery_id,
    ]);
    const older = await http.get(`/api/v1/webhook-endpoints/${endpoint.endpoint_id}/deliveries/${delivery.delivery_id}`, { token: owner.key });
    assert.equal(older.body.attempts[0].request_headers, null);
    assert.equal(older.body.attempts[0].response_headers, null);
  });

  it('the log filters by event type and by event (message) id, with the status and page after page', async () => {
    const owner = await createTenant(http);
    const endpoint = await addEndpoint('/filters', {}, owner);
    await runOnce(owner);
    for (let i = 0; i < 3; i++) await sendTest(endpoint.endpoint_id, owner);
    const received = await receiver.waitFor('/filters', 4);
    await deliveriesWhen(
      endpoint.endpoint_id,
      owner,
      'the four deliveries recorded',
      (deliveries) => deliveries.length >= 4 && deliveries.every((delivery) => delivery.status !== 'pending'),
    );
    const list = async (query: string) => {
      const response = await http.get(`/api/v1/webhook-endpoints/${endpoint.endpoint_id}/deliveries?${query}`, { token: owner.key });
      assert.equal(response.status, 200, response.text);
      return response.body as { data: any[]; next_cursor: string | null };
    };
    const tests = await list('event_type=webhook_endpoint.test');
    assert.equal(tests.data.length, 3);
    assert.ok(tests.data.every((delivery) => delivery.event_type === 'webhook_endpoint.test'));
    const runs = await list('event_type=agent_run.succeeded');
    assert.equal(runs.data.length, 1);
    assert.equal(runs.data[0].event_type, 'agent_run.succeeded');

    const runMessage = received.find((webhook) => webhook.json.type === 'agent_run.succeeded')!;
    const byId = await list(`event_id=${String(runMessage.headers['webhook-id']).toUpperCase()}`);
    assert.deepEqual(
      byId.data.map((delivery) => delivery.delivery_id),
      runs.data.map((delivery) => delivery.delivery_id),
    );
    assert.deepEqual((await list(`event_id=${runMessage.headers['webhook-id']}&event_type=webhook_endpoint.test`)).data, []);
    assert.equal((await list(`event_id=${runMessage.headers['webhook-id']}&status=delivered`)).data.length, 1);
    assert.deepEqual((await list(`event_id=${randomUUID()}`)).data, []);

    const first = await list('event_type=webhook_endpoint.test&status=delivered&limit=2');
    assert.equal(first.data.length, 2);
    assert.ok(first.next_cursor);
    const second = await list(`event_type=webhook_endpoint.test&status=delivered&limit=2&cursor=${first.next_cursor}`);
    assert.equal(second.data.length, 1);
    assert.equal(second.next_cursor, null);
    assert.deepEqual(
      [...first.data, ...second.data].map((delivery) => delivery.delivery_id),
      tests.data.map((delivery) => delivery.delivery_id),
    );
    assert.deepEqual((await list('event_type=webhook_endpoint.test&status=failed')).data, []);
  });

  it('recover re-sends the failed deliveries since a time, each once more; older ones are left alone; a disabled endpoint is 409', async () => {
    const owner = await createTenant(http);
    const endpoint = await addEndpoint('/recover', {}, owner);
    const base = `/api/v1/webhook-endpoints/${endpoint.endpoint_id}`;
    receiver.respond('/recover', 503, 503, 503);
    const old = await sendTest(endpoint.endpoint_id, owner);
    await receiver.waitFor('/recover', 1);
    // Not a wait for a condition: `since` falls strictly between the first delivery's time and the next ones'.
    await pause(20);
    const since = new Date().toISOString();
    await pause(20);
    const a = await sendTest(endpoint.endpoint_id, owner);
    const b = await sendTest(endpoint.endpoint_id, owner);
    await receiver.waitFor('/recover', 3);
    // Disabled before their 5 s retries: those find it disabled and fail the deliveries.
    assert.equal((await http.patch(base, { token: owner.key, body: { enabled: false } })).status, 200);
    await until('the three deliveries failed', async () => (await deliveriesOf(endpoint.endpoint_id, owner)).every((d) => d.status === 'failed'));
    assert.equal(receiver.at('/recover').length, 3);

    const refused = await http.post(`${base}/recover`, { token: owner.key, body: { since } });
    assert.equal(refused.status, 409, refused.text);
    assert.deepEqual(refused.body, { error: 'endpoint_disabled' });
    assert.equal((await http.patch(base, { token: owner.key, body: { enabled: true } })).status, 200);

    const recovered = await http.post(`${base}/recover`, { token: owner.key, body: { since } });
    assert.equal(recovered.status, 202, recovered.text);
    assert.deepEqual(recovered.body, { recovered: 2, delivery_ids: [a.delivery_id, b.delivery_id], has_more: false });
    const resent = await receiver.waitFor('/recover', 5);
    assert.deepEqual(new Set(resent.slice(3).map((webhook) => webhook.headers['webhook-id'])), new Set([a.event_id, b.event_id]));
    await holdsFor('each recovered delivery sent once', ABSENCE_MS, () => receiver.at('/recover').length === 5);
    const resentIds = new Set([a.delivery_id, b.delivery_id]);
    const deliveries = await deliveriesWhen(endpoint.endpoint_id, owner, 'the recovered deliveries recorded', (all) =>
      all
        .filter((delivery) => resentIds.has(delivery.delivery_id))
        .every((delivery) => delivery.status !== 'pending' && delivery.attempts.length >= 2),
    );
    const byId = new Map(deliveries.map((delivery) => [delivery.delivery_id, delivery]));
    for (const id of [a.delivery_id, b.delivery_id]) {
      assert.equal(byId.get(id).status, 'delivered');
      assert.deepEqual(
        byId.get(id).attempts.map((attempt: any) => attempt.status_code),
        [503, 200],
      );
    }
    assert.equal(byId.get(old.delivery_id).status, 'failed', 'the delivery before since is left alone');
    assert.equal(byId.get(old.delivery_id).attempts.length, 1);

    const again = await http.post(`${base}/recover`, { token: owner.key, body: { since } });
    assert.deepEqual(again.body, { recovered: 0, delivery_ids: [], has_more: false });
  });

  it('recover and the log filters: validation errors are 400 invalid_request, another organisation is 404', async () => {
    const owner = await createTenant(http);
    const endpoint = await addEndpoint('/recover-errors', {}, owner);
    const base = `/api/v1/webhook-endpoints/${endpoint.endpoint_id}`;
    const expectError = (response: { status: number; body: unknown }, status: number, code: string, what: string) => {
      assert.equal(response.status, status, `${what}: ${JSON.stringify(response.body)}`);
      assert.deepEqual(response.body, { error: code }, what);
    };
    for (const [what, body] of [
      ['in the future', { since: new Date(Date.now() + 3_600_000).toISOString() }],
      ['older than 30 days', { since: new Date(Date.now() - 31 * 86_400_000).toISOString() }],
      ['missing', {}],
      ['not a time', { since: 'yesterday' }],
      ['null', { since: null }],
      ['an extra property', { since: new Date().toISOString(), status: 'failed' }],
    ] as const) {
      const response = await http.post(`${base}/recover`, { token: owner.key, body });
      expectError(response, 400, 'invalid_request', `since ${what}`);
    }
    const future = await http.post(`${base}/recover`, { token: owner.key, body: { since: new Date(Date.now() + 3_600_000).toISOString() } });
    assert.match(future.headers.get('error-detail') ?? '', /future/);
    for (const query of ['event_type=agent_run.exploded', 'event_id=not-a-uuid', 'event_id=', 'status=lost']) {
      expectError(await http.get(`${base}/deliveries?${query}`, { token: owner.key }), 400, 'invalid_request', query);
    }
    const other = await createTenant(http);
    const since = new Date().toISOString();
    expectError(await http.post(`${base}/recover`, { token: other.key, body: { since } }), 404, 'not_found', "another organisation's endpoint");
    expectError(
      await http.post(`/api/v1/webhook-endpoints/${randomUUID()}/recover`, { token: owner.key, body: { since } }),
      404,
      'not_found',
      'unknown',
    );
    expectError(
      await http.get(`${base}/deliveries?event_type=webhook_endpoint.test`, { token: other.key }),
      404,
      'not_found',
      "another organisation's log",
    );
    const noScope = await createKey(http, owner.orgId, ['runs:read']);
    expectError(await http.post(`${base}/recover`, { token: noScope, body: { since } }), 403, 'insufficient_scope', 'without webhooks:manage');
    const none = await http.post(`${base}/recover`, { token: owner.key, body: { since } });
    assert.equal(none.status, 202, none.text);
    assert.deepEqual(none.body, { recovered: 0, delivery_ids: [], has_more: false });
  });

  it('errors: scopes, org boundary, validation and unknown ids', async () => {
    const expectError = (response: { status: number; body: unknown }, status: number, code: string) => {
      assert.equal(response.status, status, JSON.stringify(response.body));
      assert.deepEqual(response.body, { error: code });
    };
    const other = await createTenant(http);
    const endpoint = await addEndpoint('/errors', {}, other);
    const noScope = await createKey(http, tenant.orgId, ['runs:read']);
    expectError(await http.get('/api/v1/webhook-endpoints', { token: noScope }), 403, 'insufficient_scope');
    expectError(
      await http.post('/api/v1/webhook-endpoints', { token: tenant.key, body: { org_id: other.orgId, url: `${receiver.baseUrl}/x` } }),
      403,
      'insufficient_scope',
    );
    expectError(await http.get(`/api/v1/webhook-endpoints/${endpoint.endpoint_id}`, { token: tenant.key }), 404, 'not_found');
    expectError(await http.get(`/api/v1/webhook-endpoints/${randomUUID()}/deliveries`, { token: tenant.key }), 404, 'not_found');
    for (const body of [
      { org_id: tenant.orgId },
      { org_id: tenant.orgId, url: 'ftp://example.com/hook' },
      { org_id: tenant.orgId, url: 'not a url' },
      { org_id: tenant.orgId, url: `${receiver.baseUrl}/x`, events: ['agent_run.exploded'] },
      { org_id: tenant.orgId, url: `${receiver.baseUrl}/x`, events: [] },
      { org_id: tenant.orgId, url: `${receiver.baseUrl}/x`, secret: 'mine' },
    ]) {
      expectError(await http.post('/api/v1/webhook-endpoints', { token: tenant.key, body }), 400, 'invalid_request');
    }
  });

  it('SSRF: private, loopback and link-local targets are refused, also by name, unless allowed', async () => {
    const strictHttp = new Http(strict.url);
    const owner = await createTenant(strictHttp);
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://10.1.2.3/hook',
      'http://192.168.1.1/hook',
      'http://172.16.0.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hook',
      'http://[fe80::1]/hook',
      'http://0.0.0.0/hook',
      'http://[::ffff:127.0.0.1]/hook',
    ]) {
      const response = await strictHttp.post('/api/v1/webhook-endpoints', { token: owner.key, body: { org_id: owner.orgId, url } });
      assert.equal(response.status, 400, `${url} was accepted`);
      assert.deepEqual(response.body, { error: 'invalid_request' });
      assert.match(response.headers.get('error-detail') ?? '', /non-public|resolve/);
    }
    const publicIp = await strictHttp.post('/api/v1/webhook-endpoints', {
      token: owner.key,
      body: { org_id: owner.orgId, url: 'https://93.184.216.34/hook' },
    });
    assert.equal(publicIp.status, 201, publicIp.text);

    // Loopback allowed (as `npm start` does): loopback only, never another private or a metadata address.
    const developer = await createTenant(http);
    const add = (url: string) => http.post('/api/v1/webhook-endpoints', { token: developer.key, body: { org_id: developer.orgId, url } });
    for (const url of ['http://127.0.0.1:8080/hook', 'http://[::1]/hook']) assert.equal((await add(url)).status, 201, url);
    for (const url of [
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[fd00:ec2::254]/',
      'http://[::ffff:169.254.169.254]/',
    ]) {
      const refused = await add(url);
      assert.equal(refused.status, 400, `${url} was accepted with loopback allowed`);
      assert.match(refused.headers.get('error-detail') ?? '', /WEBHOOK_ALLOWED_PRIVATE_TARGETS does not list/);
    }
  });

  it('every delivery of an event is recorded before it is attempted: one row per subscribed endpoint', async () => {
    const owner = await createTenant(http);
    await Promise.all(['/many-1', '/many-2', '/many-3'].map((path) => addEndpoint(path, {}, owner)));
    const run = await runOnce(owner);
    await Promise.all(['/many-1', '/many-2', '/many-3'].map((path) => receiver.waitFor(path, 1)));
    const rows = await until('the three deliveries recorded', async () => {
      const recorded = await sql<{ status: string }>(
        `SELECT d.status FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE e.resource_id = $1`,
        [run.run_id],
      );
      return recorded.every((row) => row.status !== 'pending') && recorded;
    });
    assert.deepEqual(
      rows.map((row) => row.status),
      ['delivered', 'delivered', 'delivered'],
    );
  });

  it('a worker killed between attempts loses no delivery: the durable timer fires on the restarted worker', async () => {
    const owner = await createTenant(http);
    const endpoint = await addEndpoint('/crash', {}, owner);
    receiver.respond('/crash', 500);
    await runOnce(owner);
    await receiver.waitFor('/crash', 1);
    await deliveriesWhen(endpoint.endpoint_id, owner, 'the first attempt recorded', ([only]) => only?.attempt_count === 1);
    // The retry is due 5 s after the first attempt: the worker is down for part of that, while it restarts.
    await stack.worker.kill();
    await stack.startWorker();
    const [first, second] = await receiver.waitFor('/crash', 2, 30_000);
    assert.equal(second!.headers['webhook-id'], first!.headers['webhook-id']);
    const [delivery] = await deliveriesWhen(
      endpoint.endpoint_id,
      owner,
      'the retry recorded',
      ([only]) => only?.status !== 'pending' && only.attempts.length >= 2,
    );
    assert.equal(delivery.status, 'delivered');
    assert.deepEqual(
      delivery.attempts.map((attempt: any) => attempt.status_code),
      [500, 200],
    );
  });
});
