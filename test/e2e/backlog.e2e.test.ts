import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { agentRunWorkflowId } from '@pylon/contracts';
import { sql } from '../support/db';
import { Http, type HttpResponse } from '../support/http';
import { testInfra } from '../support/infra';
import { Stack } from '../support/stack';
import { createTenant, type Tenant } from '../support/tenant';
import { pause, until } from '../support/wait';

/**
 * Work is taken, not refused: runs wait in a bounded backlog per organisation, dispatched fairly by
 * Temporal. Only the key's rate (the product's defaults here: 50/s, bursts of 100) and a full backlog
 * answer 429 with Retry-After, which a client honours.
 */
describe('the backlog', () => {
  let stack: Stack;
  let http: Http;
  let temporal: Client;
  const admin = () => testInfra().adminToken;

  const createRun = (tenant: Tenant, input: string, idempotencyKey?: string) =>
    http.post('/api/v1/agent-runs', {
      token: tenant.key,
      body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input },
      headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
    });
  const setOrgLimits = async (orgId: string, body: Record<string, unknown>) => {
    const response = await http.patch(`/admin/v1/orgs/${orgId}/limits`, { token: admin(), body });
    assert.equal(response.status, 200, response.text);
  };
  const statusCounts = async (orgId: string) => {
    const rows = await sql<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM agent_runs WHERE org_id = $1 GROUP BY status', [
      orgId,
    ]);
    return Object.fromEntries(rows.map((row) => [row.status, row.n])) as Record<string, number>;
  };
  /** The worker starts in the first test, once work has queued; a test that needs it makes sure it runs. */
  const workerRunning = async () => {
    if (!stack.worker?.running) await stack.startWorker();
  };
  const waitUntil = (what: string, done: () => Promise<boolean>, timeoutMs = 120_000) => until(what, done, { timeoutMs, intervalMs: 200 });
  /** A new `*` key of the organisation with a rate of its own. */
  const keyWithRate = async (orgId: string, rate: { rate_limit_per_second: number; rate_limit_burst: number }) => {
    const issued = await http.post(`/admin/v1/orgs/${orgId}/api-keys`, { token: admin(), body: { name: 'batch', scopes: ['*'] } });
    assert.equal(issued.status, 201, issued.text);
    const updated = await http.patch(`/admin/v1/api-keys/${issued.body.key_id}`, { token: admin(), body: rate });
    assert.equal(updated.status, 200, updated.text);
    return issued.body.api_key as string;
  };
  /** Like any HTTP client that honours 429: wait Retry-After seconds and send the same request again. */
  const honouring429 = async (send: () => Promise<HttpResponse>): Promise<{ response: HttpResponse; refusals: number }> => {
    for (let refusals = 0; ; refusals++) {
      const response = await send();
      if (response.status !== 429) return { response, refusals };
      assert.match(response.headers.get('retry-after') ?? '', /^\d+$/);
      await pause(Number(response.headers.get('retry-after')) * 1000);
    }
  };

  before(async () => {
    // The product's default key rate; the worker starts later, so that work first waits in the backlog.
    // One API process: a backlog cap holds exactly within a process, while replicas that admit work in the
    // same moment may pass it by what they admit (docs/api.md, "Limits and admission").
    stack = await Stack.start({ env: { RATE_LIMIT_PER_SECOND: '50', RATE_LIMIT_BURST: '100' }, worker: false, apiReplicas: 1 });
    http = new Http(stack.url);
    temporal = new Client({ connection: await Connection.connect({ address: testInfra().temporalAddress }) });
  });
  after(async () => {
    await temporal?.connection.close();
    await stack?.stop();
  });

  it('a full backlog answers 429 rate_limited with Retry-After and the reason, creates nothing, and takes idempotent replays; cancel reaches queued runs without starting them', async () => {
    const tenant = await createTenant(http);
    await setOrgLimits(tenant.orgId, { queued_runs: 5, dispatch_weight: 3 });
    const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => createRun(tenant, `queued ${i}`, `batch-${i}`)));
    const accepted = responses.filter((response) => response.status === 200);
    const refused = responses.filter((response) => response.status !== 200);
    assert.equal(accepted.length, 5, responses.map((response) => response.status).join(' '));
    for (const response of refused) {
      assert.equal(response.status, 429, response.text);
      assert.deepEqual(response.body, { error: 'rate_limited' });
      assert.equal(response.headers.get('retry-after'), '5');
      assert.equal(response.headers.get('error-detail'), 'this organisation has 5 agent runs queued, its limit is 5; retry once some have started');
      assert.match(response.headers.get('ratelimit-remaining') ?? '', /^\d+$/, 'the key rate headers too');
    }
    assert.deepEqual(await statusCounts(tenant.orgId), { queued: 5 });
    for (const response of accepted) assert.equal(response.body.status, 'queued');

    // A replay of an accepted run is not new work: the same run, even with the backlog full.
    const replayed = await createRun(tenant, 'queued 0', 'batch-0');
    assert.equal(replayed.status, 200, replayed.text);
    assert.equal(replayed.body.run_id, responses[0]!.body.run_id);

    // Each run's workflow carries the organisation as its fairness key, with its weight.
    const described = await temporal.workflow.getHandle(agentRunWorkflowId(accepted[0]!.body.run_id)).describe();
    assert.deepEqual(described.raw.workflowExecutionInfo?.priority?.fairnessKey, tenant.orgId);
    assert.equal(described.raw.workflowExecutionInfo?.priority?.fairnessWeight, 3);

    const [cancelled, kept] = [accepted.slice(0, 2), accepted.slice(2)];
    for (const response of cancelled) {
      const cancel = await http.post(`/api/v1/agent-runs/${response.body.run_id}/cancel`, { token: tenant.key });
      assert.equal(cancel.status, 202, cancel.text);
      assert.deepEqual([cancel.body.status, cancel.body.error], ['failed', 'cancelled'], 'a queued run ends at once, no worker needed');
    }
    const queued = await http.get('/api/v1/agent-runs?status=queued&limit=100', { token: tenant.key });
    assert.deepEqual(
      queued.body.data.map((run: { run_id: string }) => run.run_id).sort(),
      kept.map((response) => response.body.run_id).sort(),
      'what a batch caller lists to see its queue',
    );
    await stack.startWorker();
    await waitUntil('the kept runs to succeed', async () => (await statusCounts(tenant.orgId)).succeeded === kept.length);
    for (const response of cancelled) {
      const events = await http.get(`/api/v1/agent-runs/${response.body.run_id}/events`, { token: tenant.key });
      assert.deepEqual(
        events.body.data.map((event: { type: string }) => event.type),
        ['queued', 'failed'],
        'never started',
      );
      // The workflow ends when a worker takes the cancellation, which may come after the kept runs finished.
      const workflow = temporal.workflow.getHandle(agentRunWorkflowId(response.body.run_id));
      await waitUntil('the cancelled workflow to end', async () => (await workflow.describe()).status.name !== 'RUNNING');
      assert.equal((await workflow.describe()).status.name, 'CANCELLED');
    }
    assert.deepEqual(await statusCounts(tenant.orgId), { succeeded: 3, failed: 2 });
    assert.equal((await createRun(tenant, 'after the backlog drained')).status, 200);
  });

  it('a full backlog of documents answers 429 too', async () => {
    const tenant = await createTenant(http);
    await setOrgLimits(tenant.orgId, { queued_documents: 1 });
    if (stack.worker?.running) await stack.worker.stop();
    try {
      const add = (i: number) =>
        http.post('/api/v1/knowledge/documents', {
          token: tenant.key,
          body: { org_id: tenant.orgId, title: `doc ${i}`, content: 'Pylon queues work.' },
        });
      assert.equal((await add(1)).status, 202);
      const second = await add(2);
      assert.equal(second.status, 429, second.text);
      assert.equal(second.headers.get('error-detail'), 'this organisation has 1 documents processing, its limit is 1; retry once some have started');
    } finally {
      await stack.startWorker();
    }
  });

  it('100 concurrent creates from one key within its burst (after two earlier requests) are all taken, and all succeed', async () => {
    await workerRunning();
    const tenant = await createTenant(http); // its key's first requests: an agent and a version
    // Not a wait for a condition: the key's bucket refills with time, 100 ms giving back more than those two requests took.
    await pause(100);
    const responses = await Promise.all(Array.from({ length: 100 }, (_, i) => createRun(tenant, `burst ${i}`)));
    assert.deepEqual(
      responses
        .filter((response) => response.status !== 200)
        .map((response) => `${response.status} ${response.text} ${response.headers.get('error-detail')}`),
      [],
    );
    await waitUntil('100 runs to succeed', async () => (await statusCounts(tenant.orgId)).succeeded === 100);
    assert.deepEqual(await statusCounts(tenant.orgId), { succeeded: 100 });
  });

  it("a batch of 1 000 runs from a client that honours 429 is taken whole and succeeds whole, once each, through a worker's kill -9; meanwhile another organisation's 20 runs succeed", async () => {
    await workerRunning();
    const [batchTenant, neighbour] = await Promise.all([createTenant(http), createTenant(http)]);
    // The batch's key has a rate of its own, 15/s (bursts of 15): the client must outrun it on any machine.
    // A slow VM's API, on the cluster topology beside another test file, answered creates no faster than 30/s.
    const batch = { ...batchTenant, key: await keyWithRate(batchTenant.orgId, { rate_limit_per_second: 15, rate_limit_burst: 15 }) };
    const total = 1_000;
    let next = 0;
    let refusals = 0;
    const runIds = new Set<string>();
    // 20 connections, each sending the next item as soon as the last was answered, as a batch job would.
    const submitted = Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < total) {
          const item = next++;
          const sent = await honouring429(() => createRun(batch, `item ${item}`, `item-${item}`));
          assert.equal(sent.response.status, 200, sent.response.text);
          refusals += sent.refusals;
          runIds.add(sent.response.body.run_id);
        }
      }),
    );
    // The neighbour's runs come once the batch is well under way (at its 15/s, some 4 s in).
    await waitUntil('the batch under way', async () => runIds.size >= 60, 60_000);
    const neighbourStarted = Date.now();
    const neighbourRuns = await Promise.all(Array.from({ length: 20 }, (_, i) => createRun(neighbour, `neighbour ${i}`)));
    assert.deepEqual(
      neighbourRuns.map((response) => response.status),
      Array(20).fill(200),
    );
    await waitUntil("the neighbour's 20 runs to succeed", async () => (await statusCounts(neighbour.orgId)).succeeded === 20);
    const neighbourSeconds = (Date.now() - neighbourStarted) / 1000;
    // The worker dies (kill -9) while the backlog drains and another takes over: its tasks time out and
    // are handed to the new one, and nothing is lost or run twice.
    // The batch goes on arriving while no worker runs: the new worker takes seconds to start and poll.
    await stack.worker.kill();
    await stack.startWorker();
    await submitted;
    assert.equal(runIds.size, total, 'one run per item');
    assert.ok(refusals > 0, "the key's rate (15/s) was met and honoured");
    await waitUntil('the batch to succeed', async () => (await statusCounts(batch.orgId)).succeeded === total, 300_000);
    assert.deepEqual(await statusCounts(batch.orgId), { succeeded: total }, 'none lost, none doubled');
    const [row] = await sql<{ n: number }>('SELECT count(DISTINCT idempotency_key)::int AS n FROM agent_runs WHERE org_id = $1', [batch.orgId]);
    assert.equal(row!.n, total);
    console.log(
      `batch: ${total} runs, ${refusals} answers 429 honoured; the neighbour's 20 runs succeeded ${neighbourSeconds.toFixed(1)} s after they were sent`,
    );
  });
});
