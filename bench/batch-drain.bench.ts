/**
 * (f) Work-conserving: one organisation alone submits a batch of N agent runs as fast as it can (32
 * connections, its key's rate out of the way) and the stack drains the backlog. Runs/s = N / (first
 * run created → last run succeeded). Baselines on the same Temporal server, in the same run, a bare
 * one-activity workflow on a bare Worker in a process of its own: the same N started at once and
 * drained (the same shape), and agent-run-e2e's closed loop (8 clients, 200 workflows).
 */
import { Client, Connection } from '@temporalio/client';
import { BacklogReader, submitBatch } from './backlog';
import { startBareWorkflows } from './platform-under-load';
import type { Http } from '../test/support/http';
import { createTenant } from '../test/support/tenant';
import { envInt, log, round, runConcurrently, sleep, type BenchContext, type Benchmark, type BenchReport } from './support';

const CONNECTIONS = 32;

/**
 * Two organisations of dispatch weights 1 and 3 each submit `count / 2` runs at once; once half of all
 * of them have succeeded, how many of each had: the share Temporal's fairness gave each weight.
 */
async function weightedShares(http: Http, adminToken: string, backlog: BacklogReader, count: number) {
  const tenants = [await createTenant(http), await createTenant(http)];
  const weights = [1, 3];
  for (const [i, tenant] of tenants.entries()) {
    const set = await http.patch(`/admin/v1/orgs/${tenant.orgId}/limits`, { token: adminToken, body: { dispatch_weight: weights[i] } });
    if (set.status !== 200) throw new Error(`setting a dispatch weight: ${set.status} ${set.text}`);
  }
  log(`batch-drain: two organisations of weights ${weights.join(' and ')}, ${count / 2} runs each, submitted at once`);
  const started = performance.now();
  let submissionFailed: unknown;
  const submitted = Promise.all(tenants.map((tenant, i) => submitBatch(http, tenant, count / 2, CONNECTIONS / 2, `weight ${weights[i]}`))).catch(
    (error: unknown) => {
      submissionFailed = error;
    },
  );
  let atHalf: number[] | undefined;
  const drainedAfter: number[] = [0, 0];
  while (drainedAfter.some((seconds) => seconds === 0)) {
    if (submissionFailed) throw submissionFailed;
    const states = await Promise.all(tenants.map((tenant) => backlog.state(tenant.orgId)));
    const succeeded = states.map((state) => state.succeeded);
    if (!atHalf && succeeded[0]! + succeeded[1]! >= count / 2) atHalf = succeeded;
    states.forEach((state, i) => {
      if (drainedAfter[i] === 0 && state.succeeded === count / 2) drainedAfter[i] = round((performance.now() - started) / 1000, 1);
    });
    if (performance.now() - started > 600_000) throw new Error(`the weighted backlogs did not drain: ${JSON.stringify(states)}`);
    await sleep(250);
  }
  await submitted;
  return {
    weights,
    succeededWhenHalfWereDone: atHalf,
    drainSeconds: drainedAfter,
    shareRatio: atHalf && round(atHalf[1]! / Math.max(1, atHalf[0]!), 2),
  };
}

export const batchDrainBenchmark: Benchmark = {
  name: 'batch-drain',
  description:
    'one organisation alone drains a backlog of agent runs it submitted at once, vs a bare Temporal workflow drained the same way and in a closed loop',
  budgetMinutes: () => 10,
  async run(context: BenchContext): Promise<BenchReport> {
    const count = envInt('BENCH_BATCH_RUNS', 2_000);
    const stack = await context.stack();
    const http = await context.http();
    const tenant = await context.tenant();
    const connection = await Connection.connect({ address: context.infra.temporalAddress });
    const temporal = new Client({ connection });
    const backlog = await BacklogReader.open(context.infra.databaseUrl);
    try {
      log(`batch-drain: warm-up, then ${count} runs submitted by ${CONNECTIONS} connections`);
      await submitBatch(http, tenant, 50, CONNECTIONS, 'warm-up');
      await backlog.drained(tenant.orgId, 60_000);
      const before = await backlog.state(tenant.orgId);

      let deepest = 0;
      const sampling = setInterval(() => void backlog.state(tenant.orgId).then((state) => (deepest = Math.max(deepest, state.queued))), 500);
      const drainStarted = performance.now();
      const submitted = await submitBatch(http, tenant, count, CONNECTIONS, 'batch');
      const drained = await backlog.drained(tenant.orgId, 600_000).finally(() => clearInterval(sampling));
      const drainMs = performance.now() - drainStarted;
      const succeeded = drained.succeeded - before.succeeded;
      const pylonRunsPerSecond = round((succeeded / drainMs) * 1000, 1);
      log(
        `batch-drain: ${succeeded} of ${count} succeeded in ${round(drainMs / 1000, 1)} s (${pylonRunsPerSecond}/s; submitted in ${round(submitted.submitMs / 1000, 1)} s)`,
      );

      const shares = await weightedShares(http, stack.env.ADMIN_TOKEN!, backlog, count);

      const bare = await startBareWorkflows(temporal, context.infra.temporalAddress);
      let bareDrainMs: number;
      let bareLoop: { wallMs: number };
      try {
        log(`batch-drain: the bare workflow, ${count} started at once, then 200 in a closed loop of 8 clients`);
        await bare.drain(50, CONNECTIONS);
        bareDrainMs = await bare.drain(count, CONNECTIONS);
        bareLoop = await runConcurrently(200, 8, () => bare.run());
      } finally {
        await bare.stop();
      }
      const bareDrainPerSecond = round((count / bareDrainMs) * 1000, 1);
      const bareLoopPerSecond = round((200 / bareLoop.wallMs) * 1000, 1);
      return {
        parameters: { runs: count, connections: CONNECTIONS, model: 'local/extractive' },
        rows: [
          { metric: 'runs/s, vs the bare workflow drained the same way', pylon: pylonRunsPerSecond, baseline: bareDrainPerSecond, digits: 1 },
          {
            metric: "runs/s, vs the bare workflow in agent-run-e2e's closed loop",
            pylon: pylonRunsPerSecond,
            baseline: bareLoopPerSecond,
            digits: 1,
          },
          { metric: 'drain time (s)', pylon: round(drainMs / 1000, 1), baseline: round(bareDrainMs / 1000, 1), digits: 1 },
        ],
        pylon: {
          side: 'an organisation alone draining its batch',
          submitted,
          succeeded,
          failed: drained.failed - before.failed,
          deepestQueuedSeen: deepest,
          drainSeconds: round(drainMs / 1000, 2),
          runsPerSecond: pylonRunsPerSecond,
          weightedShares: shares,
        },
        baseline: {
          side: 'a bare one-activity workflow on a bare Worker (its own process), same Temporal server',
          drainedAtOnce: { workflows: count, seconds: round(bareDrainMs / 1000, 2), perSecond: bareDrainPerSecond },
          closedLoop: { workflows: 200, clients: 8, seconds: round(bareLoop.wallMs / 1000, 2), perSecond: bareLoopPerSecond },
        },
        notes: [
          `pylon = ${count} runs submitted by ${CONNECTIONS} connections (each POST answered once the run is queued) and drained: first POST → none queued or running; goal ≥ 0.8 × the bare workflow (work-conserving: an organisation alone gets the whole machine).`,
          `weightedShares: two organisations of dispatch weights 1 and 3 each submit ${count / 2} runs at once; when half of all their runs have succeeded, the share each has had (Temporal's fairness weights; goal ≈ 1 : 3), and each one's drain time.`,
          'baselines: the bare workflow (two workflow tasks, one activity, no API, no database) started the same way and awaited, and in the closed loop of agent-run-e2e.',
        ],
      };
    } finally {
      await backlog.close();
      await connection.close();
    }
  },
};
