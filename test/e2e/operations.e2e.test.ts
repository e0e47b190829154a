import { get as httpGet } from 'node:http';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { WORK_KINDS } from '@pylon/contracts';
import { freePort } from '../../apps/embedded/dev-server';
import { Http } from '../support/http';
import { testInfra } from '../support/infra';
import { parsePrometheusText, samplesOf, valueOf, type PrometheusExposition } from '../support/prometheus';
import { Stack } from '../support/stack';
import { createTenant, waitForRun, type Tenant } from '../support/tenant';
import { holdsFor, until as waitUntil } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

const CLI = join(__dirname, '..', '..', 'apps', 'cli', 'main.js');

/** Probes every 200 ms for up to 30 s. */
const until = <T>(what: string, probe: () => Promise<T | undefined>) => waitUntil(what, probe, { intervalMs: 200 });

async function scrape(url: string): Promise<{ exposition: PrometheusExposition; contentType: string | null; text: string }> {
  const response = await fetch(url);
  assert.equal(response.status, 200);
  const text = await response.text();
  return { exposition: parsePrometheusText(text), contentType: response.headers.get('content-type'), text };
}

describe('operating Pylon: readiness, metrics, stopping webhooks', () => {
  let stack: Stack;
  let http: Http;
  let receiver: WebhookReceiver;
  let tenant: Tenant;
  let workerMetricsUrl: string;
  let workerHealthUrl: string;
  let temporalMetricsUrl: string;
  const admin = () => testInfra().adminToken;
  const queueOf = (target: Stack, kind: string) => `${target.env.TEMPORAL_TASK_QUEUE_PREFIX}.${kind}`;
  /** Every task queue the workers poll: each kind's, the agent runs' express lane and knowledge's extraction lane. */
  const everyQueue = (target: Stack) =>
    [...WORK_KINDS.map((kind) => queueOf(target, kind)), queueOf(target, 'agent-runs-express'), queueOf(target, 'knowledge-extraction')].sort();
  const runOnce = async (owner: Tenant, client = http) => {
    const created = await client.post('/api/v1/agent-runs', {
      token: owner.key,
      body: { org_id: owner.orgId, agent_version_id: owner.versionId, input: 'operations' },
    });
    assert.equal(created.status, 200, created.text);
    return created.body.run_id as string;
  };
  const addEndpoint = async (owner: Tenant, path: string) => {
    const response = await http.post('/api/v1/webhook-endpoints', {
      token: owner.key,
      body: { org_id: owner.orgId, url: `${receiver.baseUrl}${path}` },
    });
    assert.equal(response.status, 201, response.text);
    return response.body.endpoint_id as string;
  };

  before(async () => {
    receiver = await WebhookReceiver.start();
    const [metricsPort, temporalMetricsPort, healthPort] = [await freePort(), await freePort(), await freePort()];
    stack = await Stack.start({
      // Metrics are each process's own: these tests read one API's and one worker's.
      apiReplicas: 1,
      workers: 1,
      env: {
        WEBHOOK_ALLOWED_PRIVATE_TARGETS: 'loopback',
        WORKER_METRICS_PORT: String(metricsPort),
        WORKER_TEMPORAL_METRICS_PORT: String(temporalMetricsPort),
        WORKER_HEALTH_PORT: String(healthPort),
        KB_EXTRACTION_THREADS: '3',
      },
    });
    workerHealthUrl = `http://127.0.0.1:${healthPort}/healthz`;
    workerMetricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    temporalMetricsUrl = `http://127.0.0.1:${temporalMetricsPort}/metrics`;
    http = new Http(stack.url);
    tenant = await createTenant(http);
  });
  after(async () => {
    await stack?.stop();
    await receiver?.stop();
  });

  describe('/readyz', () => {
    it("lists every kind's task queue with its backlog", async () => {
      const response = await http.get('/readyz');
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.status, 'ok');
      assert.deepEqual(response.body.checks, { database: 'ok', temporal: 'ok', queues: 'ok' });
      assert.deepEqual(Object.keys(response.body.queues).sort(), everyQueue(stack));
      for (const queue of Object.values<any>(response.body.queues)) {
        assert.deepEqual(Object.keys(queue).sort(), ['activity_tasks', 'backlog', 'status', 'workflow_tasks']);
        assert.ok(Number.isInteger(queue.backlog) && queue.backlog >= 0);
        assert.equal(queue.backlog, queue.workflow_tasks + queue.activity_tasks);
        assert.equal(queue.status, 'ok');
      }
    });

    it('answers 503 naming the queue whose backlog passed READY_MAX_QUEUE_BACKLOG, and ready again once workers drain it', async () => {
      const idle = await Stack.start({ worker: false, env: { READY_MAX_QUEUE_BACKLOG: '3' } });
      try {
        const client = new Http(idle.url);
        const owner = await createTenant(client);
        const runIds = [];
        for (let i = 0; i < 5; i++) runIds.push(await runOnce(owner, client));
        const agentRuns = queueOf(idle, 'agent-runs');
        const notReady = await until('the agent-runs backlog reported', async () => {
          const response = await client.get('/readyz');
          return response.status === 503 ? response : undefined;
        });
        assert.equal(notReady.body.status, 'unavailable');
        assert.deepEqual(notReady.body.checks, { database: 'ok', temporal: 'ok', queues: 'backlogged' });
        assert.equal(notReady.body.queues[agentRuns].status, 'backlogged');
        assert.ok(notReady.body.queues[agentRuns].backlog > 3, JSON.stringify(notReady.body));
        assert.ok(notReady.body.queues[agentRuns].workflow_tasks >= 4);
        // The first run of the organisation took the express lane (nothing else was queued), the other four the runs' queue.
        for (const queue of everyQueue(idle).filter((queue) => queue !== agentRuns)) assert.equal(notReady.body.queues[queue].status, 'ok');

        const { exposition } = await until('the backlog gauge', async () => {
          const scraped = await scrape(`${idle.url}/metrics`);
          return valueOf(scraped.exposition, 'pylon_task_queue_backlog', { task_queue: agentRuns, task_type: 'workflow' }) >= 4 ? scraped : undefined;
        });
        assert.equal(exposition.types.get('pylon_task_queue_backlog'), 'gauge');
        assert.deepEqual(
          samplesOf(exposition, 'pylon_task_queue_backlog', { task_type: 'activity' })
            .map((sample) => sample.labels.task_queue)
            .sort(),
          everyQueue(idle),
        );

        await idle.startWorker();
        for (const runId of runIds) assert.equal((await waitForRun(client, owner.key, runId)).run.status, 'succeeded');
        await until('the API ready again', async () => ((await client.get('/readyz')).status === 200 ? true : undefined));
      } finally {
        await idle.stop();
      }
    });

    it('answers 503 within the check timeout when Temporal cannot be reached', async () => {
      const cut = await Stack.start({ worker: false, apiReadyPath: '/healthz', env: { TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}` } });
      try {
        const started = Date.now();
        const response = await new Http(cut.url).get('/readyz');
        assert.ok(Date.now() - started < 3_000, `answered after ${Date.now() - started} ms`);
        assert.equal(response.status, 503);
        assert.deepEqual(response.body, {
          status: 'unavailable',
          checks: { database: 'ok', temporal: 'unavailable', queues: 'unavailable' },
          queues: {},
        });
      } finally {
        await cut.stop();
      }
    });
  });

  describe('/metrics', () => {
    it('is Prometheus text with request durations by route template, never by raw URL', async () => {
      const runId = await runOnce(tenant);
      await waitForRun(http, tenant.key, runId);
      assert.equal((await http.get(`/nothing-here/${randomUUID()}`)).status, 404);
      const { exposition, contentType, text } = await scrape(`${stack.url}/metrics`);
      assert.match(contentType ?? '', /^text\/plain; version=0\.0\.4/);
      assert.equal(exposition.types.get('http_request_duration_seconds'), 'histogram');
      assert.ok(
        valueOf(exposition, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/agent-runs/:runId', status: '200' }) >= 1,
      );
      assert.ok(valueOf(exposition, 'http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/agent-runs', status: '200' }) >= 1);
      assert.ok(valueOf(exposition, 'http_request_duration_seconds_count', { method: 'GET', route: '(unmatched)', status: '404' }) >= 1);
      assert.ok(samplesOf(exposition, 'http_request_duration_seconds_bucket', { route: '/api/v1/agent-runs/:runId', le: '+Inf' }).length >= 1);
      assert.ok(valueOf(exposition, 'pylon_workflows_started_total', { workflow_type: 'agentRunWorkflow' }) >= 1);
      assert.equal(exposition.types.get('pylon_rate_limit_rejections_total'), 'counter');
      assert.equal(valueOf(exposition, 'pylon_rate_limit_rejections_total', { limit: 'api_key_rate' }), 0);
      assert.ok(exposition.types.has('process_cpu_user_seconds_total'), 'default process metrics');
      assert.ok(exposition.types.has('nodejs_heap_size_used_bytes'));
      for (const secret of [runId, tenant.orgId, tenant.key, admin()]) assert.ok(!text.includes(secret), 'no ids or secrets in /metrics');
    });

    it('counts the requests of every API replica behind the port (on the cluster topology, aggregated by the primary)', async () => {
      const route = { method: 'GET', route: '/api/v1/agents', status: '200' };
      const before = valueOf((await scrape(`${stack.url}/metrics`)).exposition, 'http_request_duration_seconds_count', route);
      const requests = 40;
      // A new connection each, so that they spread over the replicas.
      const statuses = await Promise.all(
        Array.from(
          { length: requests },
          () =>
            new Promise<number | undefined>((resolve, reject) =>
              httpGet(`${stack.url}/api/v1/agents`, { agent: false, headers: { authorization: `Bearer ${tenant.key}` } }, (response) => {
                response.resume();
                response.on('end', () => resolve(response.statusCode));
              }).on('error', reject),
            ),
        ),
      );
      assert.deepEqual(new Set(statuses), new Set([200]));
      // Every scrape, whichever replica it reaches, sees all 40, not one replica's share.
      for (let scrapeNumber = 0; scrapeNumber < 4; scrapeNumber++) {
        const after = valueOf((await scrape(`${stack.url}/metrics`)).exposition, 'http_request_duration_seconds_count', route);
        assert.equal(after - before, requests);
      }
    });

    it('is public, and left out of the OpenAPI document', async () => {
      const response = await fetch(`${stack.url}/metrics`, { headers: { authorization: 'Bearer not-a-key' } });
      assert.equal(response.status, 200);
      const document = (await http.get('/integration/openapi.json')).body;
      assert.ok(!Object.keys(document.paths).some((path) => path.includes('metrics') || path.includes('readyz')));
    });

    it('the worker serves its own: delivery attempts by result and workflows completed by type and outcome', async () => {
      const owner = await createTenant(http);
      await addEndpoint(owner, '/metrics-ok');
      const before = (await scrape(workerMetricsUrl)).exposition;
      receiver.respond('/metrics-gone', 410);
      await addEndpoint(owner, '/metrics-gone');
      await waitForRun(http, owner.key, await runOnce(owner));
      await receiver.waitFor('/metrics-ok', 1);
      await receiver.waitFor('/metrics-gone', 1);
      const { exposition, text } = await until('the attempts counted', async () => {
        const scraped = await scrape(workerMetricsUrl);
        const counted = (result: string) =>
          valueOf(scraped.exposition, 'pylon_webhook_delivery_attempts_total', { result }) >
          valueOf(before, 'pylon_webhook_delivery_attempts_total', { result });
        return counted('delivered') && counted('gone') ? scraped : undefined;
      });
      assert.equal(exposition.types.get('pylon_webhook_delivery_attempts_total'), 'counter');
      assert.deepEqual(
        samplesOf(exposition, 'pylon_webhook_delivery_attempts_total')
          .map((sample) => sample.labels.result)
          .sort(),
        ['delivered', 'error', 'gone', 'refused', 'retry'],
      );
      assert.ok(valueOf(exposition, 'pylon_workflows_completed_total', { workflow_type: 'agentRunWorkflow', outcome: 'completed' }) >= 1);
      assert.deepEqual(
        samplesOf(exposition, 'pylon_workflows_completed_total', { workflow_type: 'agentRunWorkflow' })
          .map((sample) => sample.labels.outcome)
          .sort(),
        ['cancelled', 'completed', 'continued_as_new', 'failed'],
      );
      assert.ok(!exposition.types.has('http_request_duration_seconds'), 'API metrics stay with the API');
      assert.ok(!text.includes(owner.orgId));
      assert.equal((await fetch(workerMetricsUrl.replace('/metrics', '/other'))).status, 404);
    });

    it('the worker reports its slots per task queue, its extraction threads, and its health from a thread of its own', async () => {
      const { exposition } = await scrape(workerMetricsUrl);
      const queue = (lane: string) => `${stack.env.TEMPORAL_TASK_QUEUE_PREFIX}.${lane}`;
      assert.equal(exposition.types.get('pylon_worker_slots'), 'gauge');
      // Used and free together: every slot the Temporal Worker of that queue has.
      const slots = (taskQueue: string, slotType: string) =>
        valueOf(exposition, 'pylon_worker_slots', { task_queue: taskQueue, slot_type: slotType });
      assert.equal(slots(queue('agent-runs'), 'workflow_task'), 8, 'AGENT_RUNS_WORKFLOW_SLOTS');
      assert.equal(slots(queue('webhooks'), 'activity'), 40, 'WEBHOOKS_ACTIVITY_SLOTS');
      assert.equal(slots(queue('knowledge-extraction'), 'activity'), 3, 'one activity slot per extraction thread');
      assert.equal(slots(queue('knowledge-extraction'), 'workflow_task'), 0, 'the extraction lane runs no workflows');
      const threads =
        valueOf(exposition, 'pylon_extraction_threads', { state: 'reading' }) + valueOf(exposition, 'pylon_extraction_threads', { state: 'idle' });
      assert.equal(threads, 3, 'KB_EXTRACTION_THREADS');
      const health = await fetch(workerHealthUrl);
      assert.equal(health.status, 200);
      const body = (await health.json()) as { status: string; event_loop_blocked_ms: number; stall_threshold_ms: number };
      assert.equal(body.status, 'ok');
      assert.equal(body.stall_threshold_ms, 5_000);
      assert.ok(body.event_loop_blocked_ms < 5_000);
      assert.equal((await fetch(workerHealthUrl.replace('/healthz', '/metrics'))).status, 404);
    });

    it("the worker's Temporal SDK metrics, on a port of their own: completions, slots and task latencies by task queue", async () => {
      const owner = await createTenant(http);
      await waitForRun(http, owner.key, await runOnce(owner));
      // A new organisation's first run has nothing queued before it: it takes the express lane.
      const runsQueue = queueOf(stack, 'agent-runs-express');
      const { exposition, text } = await until('the run counted by the SDK', async () => {
        const scraped = await scrape(temporalMetricsUrl);
        return valueOf(scraped.exposition, 'temporal_workflow_completed_total', { workflow_type: 'agentRunWorkflow', task_queue: runsQueue }) >= 1
          ? scraped
          : undefined;
      });
      assert.equal(exposition.types.get('temporal_workflow_task_execution_latency_seconds'), 'histogram');
      assert.equal(exposition.types.get('temporal_local_activity_execution_latency_seconds'), 'histogram');
      const slots = samplesOf(exposition, 'temporal_worker_task_slots_available', { task_queue: runsQueue });
      assert.ok(
        slots.some((sample) => sample.labels.worker_type === 'WorkflowWorker'),
        'workflow-task slots of the runs queue',
      );
      assert.ok(!exposition.types.has('pylon_workflows_completed_total'), "Pylon's own metrics stay on WORKER_METRICS_PORT");
      assert.ok(!text.includes(owner.orgId));
    });
  });

  describe("disabling an organisation's webhook endpoints", () => {
    it("disables every endpoint of that organisation, not another's; its next events are not delivered", async () => {
      const [stopped, other] = [await createTenant(http), await createTenant(http)];
      const stoppedEndpoints = [await addEndpoint(stopped, '/disable-a1'), await addEndpoint(stopped, '/disable-a2')];
      const otherEndpoint = await addEndpoint(other, '/disable-b');

      const response = await http.post(`/admin/v1/orgs/${stopped.orgId}/webhook-endpoints/disable`, {
        token: admin(),
        body: { reason: 'abuse report 42' },
      });
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(response.body, { disabled: 2 });
      const again = await http.post(`/admin/v1/orgs/${stopped.orgId}/webhook-endpoints/disable`, { token: admin(), body: {} });
      assert.deepEqual(again.body, { disabled: 0 }, 'already disabled endpoints are not counted twice');

      for (const endpointId of stoppedEndpoints) {
        const endpoint = (await http.get(`/api/v1/webhook-endpoints/${endpointId}`, { token: stopped.key })).body;
        assert.equal(endpoint.enabled, false);
        assert.equal(endpoint.disabled_reason, 'abuse report 42');
      }
      const untouched = (await http.get(`/api/v1/webhook-endpoints/${otherEndpoint}`, { token: other.key })).body;
      assert.equal(untouched.enabled, true);
      assert.equal(untouched.disabled_reason, null);

      await waitForRun(http, stopped.key, await runOnce(stopped));
      await waitForRun(http, other.key, await runOnce(other));
      await receiver.waitFor('/disable-b', 1);
      // An absence: what the other organisation got at once, the disabled endpoints never get.
      await holdsFor(
        'no delivery to the disabled endpoints',
        1_500,
        () => receiver.at('/disable-a1').length + receiver.at('/disable-a2').length === 0,
      );
    });

    it('without a reason, the endpoints say an operator disabled them; the CLI does the same', async () => {
      const owner = await createTenant(http);
      const endpointId = await addEndpoint(owner, '/disable-cli');
      const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'webhooks', 'disable', '--org', owner.orgId], {
        env: { ...process.env, PYLON_URL: stack.url, ADMIN_TOKEN: admin() },
      });
      assert.match(stdout, /Disabled 1 webhook endpoint of /);
      const endpoint = (await http.get(`/api/v1/webhook-endpoints/${endpointId}`, { token: owner.key })).body;
      assert.equal(endpoint.enabled, false);
      assert.equal(endpoint.disabled_reason, 'disabled by an operator');
    });

    it('needs the admin token; an unknown organisation is 404; the body is checked', async () => {
      const path = `/admin/v1/orgs/${tenant.orgId}/webhook-endpoints/disable`;
      assert.equal((await http.post(path, { body: {} })).status, 401);
      assert.equal((await http.post(path, { token: tenant.key, body: {} })).status, 401);
      const unknown = await http.post(`/admin/v1/orgs/${randomUUID()}/webhook-endpoints/disable`, { token: admin(), body: {} });
      assert.equal(unknown.status, 404);
      assert.deepEqual(unknown.body, { error: 'not_found' });
      assert.deepEqual((await http.post(path, { token: admin(), body: { reason: 'x', extra: true } })).body, { error: 'invalid_request' });
      assert.deepEqual((await http.post(path, { token: admin(), body: { reason: '' } })).body, { error: 'invalid_request' });
      assert.deepEqual((await http.post('/admin/v1/orgs/not-a-uuid/webhook-endpoints/disable', { token: admin(), body: {} })).body, {
        error: 'invalid_request',
      });
    });

    it('is documented in OpenAPI with its 200 response', async () => {
      const document = (await http.get('/integration/openapi.json')).body;
      const operation = document.paths['/admin/v1/orgs/{org_id}/webhook-endpoints/disable'].post;
      assert.equal(operation.operationId, 'disableOrgWebhookEndpoints');
      assert.equal(operation.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/DisabledWebhookEndpointsView');
      assert.deepEqual(document.components.schemas.DisabledWebhookEndpointsView.required, ['disabled']);
      const body = document.components.schemas[operation.requestBody.content['application/json'].schema.$ref.split('/').pop()];
      assert.equal(body.additionalProperties, false);
      assert.deepEqual(Object.keys(body.properties), ['reason']);
    });
  });
});
