import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../../apps/embedded/dev-server';
import { sql } from '../support/db';
import { Http } from '../support/http';
import { Stack } from '../support/stack';
import { createTenant, ingestDocument, waitForRun, type Tenant } from '../support/tenant';
import { until } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

const NOISY_ENDPOINTS = 20;
const NOISY_RUNS = 160;
const QUIET_RUNS = 5;
const IN_FLIGHT_CAP = 5;
/** Few slots, so the burst makes a backlog on every queue: what fairness is about. */
const SLOTS = '2';

/**
 * One organisation floods the service: 20 webhook endpoints at a port where nothing listens, and a burst
 * of runs, every one of which owes 20 deliveries that fail and enter the retry schedule. Another
 * organisation's runs and documents, started while that flood is still being worked through, all
 * finish, and before the flood does: separate task queues keep webhook work off the run slots, and
 * fairness keys dispatch the quiet organisation's tasks between the noisy one's.
 */
describe('a noisy neighbour', () => {
  let stack: Stack;
  let http: Http;
  let noisy: Tenant;
  let quiet: Tenant;
  let receiver: WebhookReceiver;
  const noisyRunIds: string[] = [];

  before(async () => {
    receiver = await WebhookReceiver.start();
    stack = await Stack.start({
      env: {
        WEBHOOK_ALLOWED_PRIVATE_TARGETS: 'loopback',
        WEBHOOK_MAX_INFLIGHT_PER_ENDPOINT: String(IN_FLIGHT_CAP),
        AGENT_RUNS_WORKFLOW_SLOTS: SLOTS,
        AGENT_RUNS_ACTIVITY_SLOTS: SLOTS,
        AGENT_RUNS_LOCAL_ACTIVITY_SLOTS: SLOTS,
        WEBHOOKS_WORKFLOW_SLOTS: SLOTS,
        WEBHOOKS_ACTIVITY_SLOTS: SLOTS,
        // The burst is one key's: no rate limit in the way of making the flood.
        RATE_LIMIT_PER_SECOND: '100000',
        RATE_LIMIT_BURST: '100000',
      },
    });
    http = new Http(stack.url);
    [noisy, quiet] = await Promise.all([createTenant(http), createTenant(http)]);
    const quietEndpoint = await http.post('/api/v1/webhook-endpoints', {
      token: quiet.key,
      body: { org_id: quiet.orgId, url: `${receiver.baseUrl}/quiet` },
    });
    assert.equal(quietEndpoint.status, 201, quietEndpoint.text);
    const closedPort = await freePort();
    for (let i = 0; i < NOISY_ENDPOINTS; i++) {
      const created = await http.post('/api/v1/webhook-endpoints', {
        token: noisy.key,
        body: { org_id: noisy.orgId, url: `http://127.0.0.1:${closedPort}/hook-${i}` },
      });
      assert.equal(created.status, 201, created.text);
    }
  });
  after(async () => {
    await stack?.stop();
    await receiver?.stop();
  });

  async function startRun(tenant: Tenant, input: string): Promise<string> {
    const created = await http.post('/api/v1/agent-runs', {
      token: tenant.key,
      body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input },
    });
    assert.equal(created.status, 200, created.text);
    return created.body.run_id as string;
  }

  /** What the flood still owes: its runs not yet finished, and its deliveries not yet tried once. */
  async function unfinishedNoisyWork(): Promise<number> {
    const [row] = await sql<{ n: number }>(
      `SELECT (SELECT count(*) FROM agent_runs WHERE org_id = $1 AND status IN ('queued', 'running'))
            + (SELECT count(*) FROM webhook_deliveries WHERE org_id = $1 AND status = 'pending' AND attempt_count = 0) AS n`,
      [noisy.orgId],
    );
    return Number(row!.n);
  }

  it("the quiet organisation's runs and documents finish while the noisy one's burst is still being worked through", async () => {
    // The burst: 8 clients creating runs as fast as the API takes them.
    let next = 0;
    const burst = Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < NOISY_RUNS) noisyRunIds.push(await startRun(noisy, `noisy ${next++}`));
      }),
    );
    await until('half the burst created', () => noisyRunIds.length >= NOISY_RUNS / 2, { timeoutMs: 120_000, intervalMs: 20 });

    const quietRuns = await Promise.all(Array.from({ length: QUIET_RUNS }, (_, i) => startRun(quiet, `quiet ${i}`)));
    const [finished, document] = await Promise.all([
      Promise.all(quietRuns.map((runId) => waitForRun(http, quiet.key, runId, 120_000))),
      ingestDocument(http, quiet, { title: 'Quiet notes', content: 'The quiet organisation keeps its notes here.' }, 120_000),
    ]);
    const delivered = await receiver.waitFor('/quiet', QUIET_RUNS + 1, 120_000);
    const noisyLeft = await unfinishedNoisyWork();
    await burst;

    for (const { run } of finished) assert.equal(run.status, 'succeeded', JSON.stringify(run));
    const deliveredRuns = new Set(delivered.map((webhook) => webhook.json?.data?.run_id).filter(Boolean));
    assert.deepEqual([...deliveredRuns].sort(), [...quietRuns].sort(), 'every quiet run was delivered to its endpoint');
    assert.equal(document.status, 'ready', JSON.stringify(document));
    assert.ok(noisyLeft > 0, 'the quiet organisation finished only after the whole burst: its work waited behind the flood');
  });

  it('the noisy organisation loses nothing: every run finishes and every delivery is attempted or refused by the in-flight cap', async () => {
    for (const runId of noisyRunIds) assert.equal((await waitForRun(http, noisy.key, runId, 180_000)).run.status, 'succeeded');
    let rows: Array<{ status: string; attempted: boolean; capped: boolean; n: number }> = [];
    await until(
      'every delivery of the flood tried once',
      async () => {
        rows = await sql(
          `SELECT status, attempt_count > 0 AS attempted, coalesce(last_error LIKE 'not attempted:%', false) AS capped, count(*)::int AS n
             FROM webhook_deliveries WHERE org_id = $1 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
          [noisy.orgId],
        );
        return rows.filter((row) => row.status === 'pending' && !row.attempted).reduce((sum, row) => sum + row.n, 0) === 0;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    ).catch(() => undefined); // the assertions below name what is left
    const total = rows.reduce((sum, row) => sum + row.n, 0);
    assert.equal(total, NOISY_RUNS * NOISY_ENDPOINTS, JSON.stringify(rows));
    const count = (predicate: (row: (typeof rows)[number]) => boolean) => rows.filter(predicate).reduce((sum, row) => sum + row.n, 0);
    assert.equal(
      count((row) => row.status === 'delivered'),
      0,
      JSON.stringify(rows),
    );
    assert.equal(
      count((row) => row.status === 'pending' && !row.attempted),
      0,
      `deliveries never attempted: ${JSON.stringify(rows)}`,
    );
    // Each endpoint holds at most its cap in the retry schedule, give or take the first attempts already
    // under way when it was reached (at most the webhook activity slots); the rest were refused at once, and say so.
    assert.ok(count((row) => row.status === 'pending' && row.attempted) <= NOISY_ENDPOINTS * (IN_FLIGHT_CAP + Number(SLOTS)), JSON.stringify(rows));
    assert.ok(count((row) => row.capped) > 0, JSON.stringify(rows));
    const [retrying] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE org_id = $1 AND status = 'pending' AND attempt_count > 0 GROUP BY endpoint_id ORDER BY 1 DESC LIMIT 1`,
      [noisy.orgId],
    );
    // The cap stops new first attempts once reached; first attempts already under way (at most the webhook activity slots) may still join.
    assert.ok(retrying!.n <= IN_FLIGHT_CAP + Number(SLOTS), `an endpoint has ${retrying!.n} deliveries in the retry schedule`);
  });
});
