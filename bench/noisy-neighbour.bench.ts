/**
 * (e) A noisy neighbour: a quiet organisation starts agent runs at a steady pace and measures each run's
 * latency (POST → `succeeded` seen by polling), first alone, then while a noisy organisation's backlog
 * drains: it submits a batch of runs as fast as its key allows (nothing refused but by the key's rate;
 * its client honours 429), far more than the workers complete, so its runs queue. The baseline is the
 * quiet organisation alone, in the same run, on the same stack: ratio = with the backlog / alone. The
 * platform's floor is measured the same way beside it: a bare Temporal workflow (no API, no database)
 * at the quiet pace, alone and while the same backlog drains.
 */
import { cpus } from 'node:os';
import { Client, Connection } from '@temporalio/client';
import { agentRunWorkflowId } from '@pylon/contracts';
import { Http } from '../test/support/http';
import { Stack } from '../test/support/stack';
import { createTenant, type Tenant } from '../test/support/tenant';
import { BacklogReader, submitBatch, type Submitted } from './backlog';
import { startBareWorkflows } from './platform-under-load';
import { measureCpu, stackCpuParts } from './process-cpu';
import { envInt, log, openLoop, round, sleep, summarize, workflowTimeline, type BenchContext, type Benchmark, type BenchReport } from './support';

const POLL_MS = 20;
const RUN_TIMEOUT_MS = 180_000;
/** The noisy organisation's batch job: this many connections, each sending its next item once the last was answered. */
const NOISY_CONNECTIONS = 16;

interface QuietRun {
  ok: boolean;
  runId?: string;
  latencyMs: number;
  postMs?: number;
  error?: string;
}

async function runAndWait(http: Http, tenant: Tenant, input: string): Promise<QuietRun> {
  const started = performance.now();
  const created = await http.post('/api/v1/agent-runs', {
    token: tenant.key,
    body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input },
  });
  if (created.status !== 200) return { ok: false, latencyMs: NaN, error: `POST ${created.status} ${created.text}` };
  const postMs = performance.now() - started;
  const runId = created.body.run_id as string;
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const run = await http.get(`/api/v1/agent-runs/${runId}`, { token: tenant.key });
    if (run.body.status === 'succeeded') return { ok: true, runId, latencyMs: performance.now() - started, postMs };
    if (run.body.status === 'failed' || run.status !== 200) return { ok: false, runId, latencyMs: NaN, error: `GET ${run.status} ${run.text}` };
    await sleep(POLL_MS);
  }
  return { ok: false, runId, latencyMs: NaN, error: 'timed out' };
}

function latencies(runs: QuietRun[]) {
  return summarize(runs.filter((run) => run.ok).map((run) => run.latencyMs));
}

function failures(runs: QuietRun[]) {
  return {
    failed: runs.filter((run) => !run.ok).length,
    firstErrors: [...new Set(runs.flatMap((run) => (run.error ? [run.error.slice(0, 200)] : [])))].slice(0, 5),
  };
}

/** CPU ms per part over a phase of `wallMs`, as % of one core. */
function shareOfOneCore(cpuMs: Record<string, number>, wallMs: number): Record<string, number> {
  const shares = Object.fromEntries(Object.entries(cpuMs).map(([part, ms]) => [part, round((100 * ms) / wallMs, 0)]));
  return { ...shares, total: Object.values(shares).reduce((a, b) => a + b, 0) };
}

function addCpu(total: Record<string, number>, more: Record<string, number>): void {
  for (const [part, ms] of Object.entries(more)) total[part] = (total[part] ?? 0) + ms;
}

/**
 * When the quiet load runs: `drain`, once the whole batch is queued and only draining (the default);
 * `submit`, as soon as 500 are queued, while the rest is still being submitted.
 */
type Phase = 'drain' | 'submit';

interface AloneThenBacklog {
  alone: QuietRun[];
  withBacklog: QuietRun[];
  perRound: { aloneP99: number; backlogP99: number; noisyQueuedAtStart: number; noisyQueuedAtEnd: number }[];
  batches: Array<Submitted & { drainSeconds: number; succeeded: number }>;
  aloneCpu: Record<string, number>;
  backlogCpu: Record<string, number>;
}

/**
 * `rounds` rounds of: the quiet load alone; then the noisy organisation submits its batch, and once a
 * backlog has built up the same quiet load runs again while it drains; then the backlog drains fully
 * before the next round.
 */
async function roundsAloneThenBacklog(options: {
  phase: Phase;
  rounds: number;
  http: Http;
  noisy: Tenant;
  noisyRuns: number;
  backlog: BacklogReader;
  cpuParts: ReturnType<typeof stackCpuParts>;
  what: string;
  quietLoad: () => Promise<QuietRun[]>;
}): Promise<AloneThenBacklog> {
  const { phase, rounds, http, noisy, noisyRuns, backlog, cpuParts, quietLoad } = options;
  const result: AloneThenBacklog = { alone: [], withBacklog: [], perRound: [], batches: [], aloneCpu: {}, backlogCpu: {} };
  const aloneCpuMs: Record<string, number> = {};
  const backlogCpuMs: Record<string, number> = {};
  let aloneWallMs = 0;
  let backlogWallMs = 0;
  for (let round = 1; round <= rounds; round++) {
    log(`noisy-neighbour: round ${round}/${rounds}: ${options.what} alone`);
    const aloneCpu = measureCpu(cpuParts);
    const aloneStarted = performance.now();
    const alone = await quietLoad();
    aloneWallMs += performance.now() - aloneStarted;
    addCpu(aloneCpuMs, aloneCpu());

    log(`noisy-neighbour: round ${round}/${rounds}: the same while a backlog of ${noisyRuns} noisy runs drains`);
    const before = await backlog.state(noisy.orgId);
    const batchStarted = performance.now();
    const batch = submitBatch(http, noisy, noisyRuns, NOISY_CONNECTIONS, `${options.what} round ${round}`);
    if (phase === 'drain') await batch;
    else while ((await backlog.state(noisy.orgId)).queued < Math.min(500, noisyRuns / 4)) await sleep(50);
    const atStart = await backlog.state(noisy.orgId);
    const backlogCpu = measureCpu(cpuParts);
    const measuredStarted = performance.now();
    const withBacklog = await quietLoad();
    backlogWallMs += performance.now() - measuredStarted;
    addCpu(backlogCpuMs, backlogCpu());
    const atEnd = await backlog.state(noisy.orgId);
    const submitted = await batch;
    const drained = await backlog.drained(noisy.orgId, 600_000);
    result.batches.push({
      ...submitted,
      drainSeconds: round1((performance.now() - batchStarted) / 1000),
      succeeded: drained.succeeded - before.succeeded,
    });
    result.alone.push(...alone);
    result.withBacklog.push(...withBacklog);
    result.perRound.push({
      aloneP99: round1(latencies(alone).p99),
      backlogP99: round1(latencies(withBacklog).p99),
      noisyQueuedAtStart: atStart.queued,
      noisyQueuedAtEnd: atEnd.queued,
    });
  }
  result.aloneCpu = shareOfOneCore(aloneCpuMs, aloneWallMs);
  result.backlogCpu = shareOfOneCore(backlogCpuMs, backlogWallMs);
  return result;
}

function round1(value: number): number {
  return round(value, 1);
}

async function timelineOf(temporal: Client, runs: QuietRun[]) {
  const ok = runs.filter((run) => run.ok).sort((a, b) => a.latencyMs - b.latencyMs);
  const pick = async (run: QuietRun | undefined) =>
    run && { latencyMs: round1(run.latencyMs), postMs: round1(run.postMs!), ...(await workflowTimeline(temporal, agentRunWorkflowId(run.runId!))) };
  return { medianRun: await pick(ok[Math.floor(ok.length / 2)]), slowestRun: await pick(ok[ok.length - 1]) };
}

export const noisyNeighbourBenchmark: Benchmark = {
  name: 'noisy-neighbour',
  description:
    "a quiet organisation's run latency at a steady pace, alone and while a noisy organisation's backlog of runs (submitted as fast as its key allows) drains",
  budgetMinutes: () => 20,
  async run(context: BenchContext): Promise<BenchReport> {
    const rate = envInt('BENCH_NOISY_QUIET_RATE', 4);
    const seconds = envInt('BENCH_NOISY_SECONDS', 15);
    const rounds = envInt('BENCH_NOISY_ROUNDS', 3);
    const noisyRuns = envInt('BENCH_NOISY_RUNS', 2_000);
    const noisyKeyRate = envInt('BENCH_NOISY_KEY_RATE', 500);
    const phase: Phase = process.env.BENCH_NOISY_PHASE === 'submit' ? 'submit' : 'drain';
    // The product's defaults, but for the two keys' own rates below.
    const stack = await Stack.start({ env: {} });
    const connection = await Connection.connect({ address: context.infra.temporalAddress });
    const temporal = new Client({ connection });
    const backlog = await BacklogReader.open(context.infra.databaseUrl);
    try {
      const http = new Http(stack.url);
      const [quiet, noisy] = [await createTenant(http), await createTenant(http)];
      // Admin overrides of the two keys' rates: the quiet organisation polls every POLL_MS ms, the noisy one submits as fast as its key allows.
      for (const [tenant, perSecond] of [
        [quiet, 100_000],
        [noisy, noisyKeyRate],
      ] as const) {
        const keyId = (await http.get(`/admin/v1/orgs/${tenant.orgId}/api-keys`, { token: stack.env.ADMIN_TOKEN })).body.data[0].key_id as string;
        const set = await http.patch(`/admin/v1/api-keys/${keyId}`, {
          token: stack.env.ADMIN_TOKEN,
          body: { rate_limit_per_second: perSecond, rate_limit_burst: perSecond },
        });
        if (set.status !== 200) throw new Error(`setting a key's rate: ${set.status} ${set.text}`);
      }
      log('noisy-neighbour: warm-up');
      await openLoop(rate, 2, (i) => runAndWait(http, quiet, `warm-up ${i}`));

      const cpuParts = stackCpuParts(context.infra, stack);
      const shared = { phase, rounds, http, noisy, noisyRuns, backlog, cpuParts };
      const quietLoad = () => openLoop(rate, seconds, (i) => runAndWait(http, quiet, `What is Pylon? (quiet ${i})`));
      const pylon = await roundsAloneThenBacklog({ ...shared, what: 'quiet organisation', quietLoad });

      const bare = await startBareWorkflows(temporal, context.infra.temporalAddress);
      let floor: AloneThenBacklog;
      try {
        const bareLoad = () => openLoop(rate, seconds, async () => ({ ok: true, latencyMs: await bare.run() }));
        floor = await roundsAloneThenBacklog({ ...shared, what: `bare Temporal workflow at ${rate}/s`, quietLoad: bareLoad });
      } finally {
        await bare.stop();
      }

      const [alone, withBacklog, floorAlone, floorBacklog] = [pylon.alone, pylon.withBacklog, floor.alone, floor.withBacklog].map(latencies);
      const postOf = (runs: QuietRun[]) => summarize(runs.filter((run) => run.ok).map((run) => run.postMs!));
      const p99Ratio = withBacklog!.p99 / alone!.p99;
      const floorP99Ratio = floorBacklog!.p99 / floorAlone!.p99;
      const rows = [
        { metric: 'quiet run latency p50 (ms)', pylon: withBacklog!.p50, baseline: alone!.p50, digits: 1 },
        { metric: 'quiet run latency p99 (ms)', pylon: withBacklog!.p99, baseline: alone!.p99, digits: 1 },
        { metric: 'quiet run latency mean (ms)', pylon: withBacklog!.mean, baseline: alone!.mean, digits: 1 },
        { metric: 'quiet run POST p99 (ms)', pylon: postOf(pylon.withBacklog).p99, baseline: postOf(pylon.alone).p99, digits: 1 },
        { metric: 'quiet runs failed', pylon: failures(pylon.withBacklog).failed, baseline: failures(pylon.alone).failed, digits: 0 },
        { metric: 'floor: bare workflow p50 (ms)', pylon: floorBacklog!.p50, baseline: floorAlone!.p50, digits: 1 },
        { metric: 'floor: bare workflow p99 (ms)', pylon: floorBacklog!.p99, baseline: floorAlone!.p99, digits: 1 },
        ...Object.keys(pylon.backlogCpu).map((part) => ({
          metric: `CPU, % of one core: ${part}`,
          pylon: pylon.backlogCpu[part]!,
          baseline: pylon.aloneCpu[part]!,
          digits: 0,
        })),
      ];
      return {
        parameters: {
          phase,
          rounds,
          quietRunsPerSecond: rate,
          seconds,
          noisyRuns,
          noisyConnections: NOISY_CONNECTIONS,
          noisyKeyRatePerSecond: noisyKeyRate,
          pollMs: POLL_MS,
          model: 'local/extractive',
        },
        rows,
        pylon: {
          side: "quiet organisation while the noisy organisation's backlog drains",
          latencyMs: withBacklog,
          ...failures(pylon.withBacklog),
          perRound: pylon.perRound,
          noisyBatches: pylon.batches,
          ...(await timelineOf(temporal, pylon.withBacklog)),
        },
        baseline: {
          side: 'quiet organisation alone',
          latencyMs: alone,
          ...failures(pylon.alone),
          ...(await timelineOf(temporal, pylon.alone)),
          floor: {
            side: 'a bare Temporal workflow (two workflow tasks, one activity; its Worker a process of its own) at the quiet pace, alone and while the same backlog drains',
            alone: floorAlone,
            withBacklog: floorBacklog,
            p99Ratio: round(floorP99Ratio, 2),
            perRound: floor.perRound,
            noisyBatches: floor.batches,
          },
        },
        notes: [
          `goal: p99 ratio ≤ 1.5 (or, where the floor's own ratio exceeds 1.5, ≤ the floor's ratio + 0.1) and p50 ratio ≤ 1.2. This run: p99 ${round(p99Ratio, 2)}×, p50 ${round(withBacklog!.p50 / alone!.p50, 2)}×; floor p99 ${round(floorP99Ratio, 2)}×.`,
          `${rounds} rounds of alone, then with the backlog draining (the noisy organisation's ${noisyRuns} runs from ${NOISY_CONNECTIONS} connections at up to ${noisyKeyRate} requests/s, its key's rate; measured ${phase === 'drain' ? 'once all were queued' : `once ${Math.min(500, noisyRuns / 4)} were queued, while the rest were being submitted`}); quiet runs pooled: p99 of ${rounds * rate * seconds} per side. perRound.noisyQueuedAtEnd: the noisy runs still queued when the quiet load ended (above 0: the backlog was draining throughout).`,
          `CPU: each process's user + system time (all threads, from /proc) while the quiet organisation's runs were measured, as a share of one core (the machine has ${cpus().length}).`,
        ],
      };
    } finally {
      await backlog.close();
      await connection.close();
      await stack.stop();
    }
  },
};
