/**
 * (e) A noisy neighbour: a quiet organisation starts agent runs at a steady pace and measures each
 * run's latency (POST → `succeeded` seen by polling), first alone, then while a noisy organisation
 * floods the same stack: clients creating runs as fast as its limits let them (its key's rate and its
 * organisation's agent runs per second, the product's defaults unless BENCH_NOISY_* say otherwise), every run
 * owing deliveries to webhook endpoints at a port where nothing listens (each fails and enters the
 * retry schedule until the endpoint's in-flight cap refuses more). The baseline is the quiet
 * organisation alone, in the same run, on the same stack: ratio = with the flood / alone. The same is
 * then measured for a bare Temporal workflow in place of the quiet organisation: the platform's share.
 */
import { cpus } from 'node:os';
import { Client, Connection } from '@temporalio/client';
import { DELIVERY_SCHEDULE_MS, agentRunWorkflowId } from '@pylon/contracts';
import { Http } from '../test/support/http';
import { Stack } from '../test/support/stack';
import { createTenant, type Tenant } from '../test/support/tenant';
import { freePort } from '@pylon/temporal';
import { bareWorkflowUnderLoad, startBareWorkflows, type PlatformUnderLoad } from './platform-under-load';
import { measureCpu, stackCpuParts } from './process-cpu';
import { envInt, log, openLoop, round, sleep, summarize, workflowTimeline, type BenchContext, type Benchmark, type BenchReport } from './support';

const POLL_MS = 20;
const RUN_TIMEOUT_MS = 120_000;

interface QuietRun {
  ok: boolean;
  runId?: string;
  latencyMs: number;
  postMs?: number;
  error?: string;
}

interface QuietFigures {
  runs: number;
  failed: number;
  firstErrors: string[];
  latencyMs: ReturnType<typeof summarize>;
  postMs: ReturnType<typeof summarize>;
  /** The runs at the median and the highest latency: their workflow histories, to see where the time went. */
  medianRun?: RunTimeline;
  slowestRun?: RunTimeline;
}

interface RunTimeline {
  latencyMs: number;
  postMs?: number;
  workflowId: string;
  events: string[];
}

async function timelineOf(temporal: Client, run: QuietRun | undefined): Promise<RunTimeline | undefined> {
  if (!run) return undefined;
  return { latencyMs: round(run.latencyMs, 1), postMs: round(run.postMs!, 1), ...(await workflowTimeline(temporal, agentRunWorkflowId(run.runId!))) };
}

/** CPU ms per part over a phase of `wallMs`, as % of one core. */
function shareOfOneCore(cpuMs: Record<string, number>, wallMs: number): Record<string, number> {
  const shares = Object.fromEntries(Object.entries(cpuMs).map(([part, ms]) => [part, round((100 * ms) / wallMs, 0)]));
  return { ...shares, total: Object.values(shares).reduce((a, b) => a + b, 0) };
}

async function runAndWait(http: Http, tenant: Tenant, input: string): Promise<QuietRun> {
  const started = performance.now();
  const created = await http.post('/api/v1/agent-runs', { token: tenant.key, body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input } });
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

/** Open loop: one run every 1000 / rate ms for `seconds`, whatever the earlier ones are doing. */
function quietLoad(http: Http, tenant: Tenant, rate: number, seconds: number): Promise<QuietRun[]> {
  return openLoop(rate, seconds, (i) => runAndWait(http, tenant, `What is Pylon? (quiet ${i})`));
}

async function figuresOf(results: QuietRun[], temporal: Client): Promise<QuietFigures> {
  const ok = results.filter((result) => result.ok).sort((a, b) => a.latencyMs - b.latencyMs);
  const median = ok[Math.floor(ok.length / 2)];
  return {
    runs: results.length,
    failed: results.length - ok.length,
    firstErrors: [...new Set(results.flatMap((result) => (result.error ? [result.error.slice(0, 200)] : [])))].slice(0, 5),
    latencyMs: summarize(ok.map((result) => result.latencyMs)),
    postMs: summarize(ok.map((result) => result.postMs!)),
    medianRun: await timelineOf(temporal, median),
    slowestRun: await timelineOf(temporal, ok[ok.length - 1]),
  };
}

function p99Of(results: QuietRun[]): number {
  return round(summarize(results.filter((result) => result.ok).map((result) => result.latencyMs)).p99, 1);
}

/** Adds up CPU ms per part. */
function addCpu(total: Record<string, number>, more: Record<string, number>): void {
  for (const [part, ms] of Object.entries(more)) total[part] = (total[part] ?? 0) + ms;
}

/** A noisy organisation with `count` webhook endpoints at a port where nothing listens. */
async function noisyTenant(http: Http, count: number): Promise<Tenant> {
  const noisy = await createTenant(http);
  const closedPort = await freePort();
  for (let i = 0; i < count; i++) {
    const body = { org_id: noisy.orgId, url: `http://127.0.0.1:${closedPort}/hook-${i}` };
    let created = await http.post('/api/v1/webhook-endpoints', { token: noisy.key, body });
    while (created.status === 429) {
      await sleep(Number(created.headers.get('retry-after') ?? '1') * 1000);
      created = await http.post('/api/v1/webhook-endpoints', { token: noisy.key, body });
    }
    if (created.status !== 201) throw new Error(`noisy endpoint ${i}: ${created.status} ${created.text}`);
  }
  return noisy;
}

/** One side measured in rounds of alone then flood, pooled. */
interface AloneThenFlood {
  alone: QuietRun[];
  withFlood: QuietRun[];
  perRound: { aloneP99: number; floodP99: number }[];
  flood: { created: number; rateLimited: number; runRateRefused: number; other: number; seconds: number; runsPerSecond: number };
  /** Each process's CPU while the quiet side was measured, % of one core. */
  aloneCpu: Record<string, number>;
  floodCpu: Record<string, number>;
}

/**
 * `rounds` rounds of: the quiet load alone, then the same while a noisy organisation of its own (the last
 * one's endpoints are at their in-flight cap, which would refuse its deliveries without an attempt)
 * floods the stack, started 2 s before and stopped after; then the flood's last retries (5 s after
 * their first attempts) pass before the next round.
 */
async function roundsAloneThenFlood(options: {
  http: Http;
  rounds: number;
  seconds: number;
  noisyClients: number;
  pacedRate: number;
  noisyEndpoints: number;
  floodBy: string;
  cpuParts: ReturnType<typeof stackCpuParts>;
  what: string;
  quietLoad: () => Promise<QuietRun[]>;
}): Promise<AloneThenFlood> {
  const { http, rounds, seconds, noisyClients, pacedRate, noisyEndpoints, cpuParts, quietLoad } = options;
  const result: AloneThenFlood = { alone: [], withFlood: [], perRound: [], flood: { created: 0, rateLimited: 0, runRateRefused: 0, other: 0, seconds: 0, runsPerSecond: 0 }, aloneCpu: {}, floodCpu: {} };
  const flood = result.flood;
  const aloneCpuMs: Record<string, number> = {};
  const floodCpuMs: Record<string, number> = {};
  let aloneWallMs = 0;
  let floodWallMs = 0;
  for (let roundNo = 1; roundNo <= rounds; roundNo++) {
    const noisy = await noisyTenant(http, noisyEndpoints);

    log(`noisy-neighbour: round ${roundNo}/${rounds}: ${options.what} alone for ${seconds} s`);
    const aloneCpu = measureCpu(cpuParts);
    const aloneStarted = performance.now();
    const alone = await quietLoad();
    aloneWallMs += performance.now() - aloneStarted;
    addCpu(aloneCpuMs, aloneCpu());

    log(`noisy-neighbour: round ${roundNo}/${rounds}: the same with ${options.floodBy} (each owing ${noisyEndpoints} failing deliveries)`);
    let flooding = true;
    const floodStarted = performance.now();
    /** Creates one noisy run; a refusal's Retry-After in seconds, else 0. */
    const createNoisyRun = async (): Promise<number> => {
      const created = await http.post('/api/v1/agent-runs', { token: noisy.key, body: { org_id: noisy.orgId, agent_version_id: noisy.versionId, input: 'flood' } });
      if (created.status === 200) flood.created++;
      else if (created.status === 429 || (created.status === 409 && created.body.error === 'limit_exceeded')) {
        if (created.status === 429) flood.rateLimited++;
        else flood.runRateRefused++;
        return Number(created.headers.get('retry-after') ?? '1');
      } else flood.other++;
      return 0;
    };
    const floodClients =
      pacedRate > 0
        ? [openLoop(pacedRate, seconds + 3, createNoisyRun)] // the 2 s before the quiet runs, their 15 s, and their last runs' end
        : Array.from({ length: noisyClients }, async () => {
            while (flooding) await sleep((await createNoisyRun()) * 1000);
          });
    await sleep(2_000);
    const floodCpu = measureCpu(cpuParts);
    const measuredStarted = performance.now();
    const withFlood = await quietLoad();
    floodWallMs += performance.now() - measuredStarted;
    addCpu(floodCpuMs, floodCpu());
    flooding = false;
    await Promise.all(floodClients);
    flood.seconds += (performance.now() - floodStarted) / 1000;
    result.alone.push(...alone);
    result.withFlood.push(...withFlood);
    result.perRound.push({ aloneP99: p99Of(alone), floodP99: p99Of(withFlood) });
    await sleep(DELIVERY_SCHEDULE_MS[1] + 2_000);
  }
  flood.runsPerSecond = round(flood.created / flood.seconds, 1);
  flood.seconds = round(flood.seconds, 1);
  result.aloneCpu = shareOfOneCore(aloneCpuMs, aloneWallMs);
  result.floodCpu = shareOfOneCore(floodCpuMs, floodWallMs);
  return result;
}

function latenciesOf(runs: QuietRun[]): ReturnType<typeof summarize> {
  return summarize(runs.filter((run) => run.ok).map((run) => run.latencyMs));
}

export const noisyNeighbourBenchmark: Benchmark = {
  name: 'noisy-neighbour',
  description:
    "a quiet organisation's run latency at a steady pace, alone and while a noisy organisation floods the stack with runs (as fast as its limits allow) whose webhooks all fail",
  budgetMinutes: () => 18,
  async run(context: BenchContext): Promise<BenchReport> {
    const rate = envInt('BENCH_NOISY_QUIET_RATE', 4);
    const seconds = envInt('BENCH_NOISY_SECONDS', 15);
    /** Rounds of (alone, flood), pooled: one round's p99 is its slowest of 60 runs, which one hiccup decides. */
    const rounds = envInt('BENCH_NOISY_ROUNDS', 5);
    const noisyClients = envInt('BENCH_NOISY_CLIENTS', 16);
    /** When set, the noisy organisation starts runs at this steady rate instead (one client, open loop): the same load without a herd. */
    const pacedRate = envInt('BENCH_NOISY_PACED_RATE', 0);
    const noisyEndpoints = process.env.BENCH_NOISY_ENDPOINTS === '0' ? 0 : envInt('BENCH_NOISY_ENDPOINTS', 20);
    /** The platform's own share (platform-under-load.ts): a bare workflow under the same flood, and under its CPU alone; BENCH_NOISY_PLATFORM=0 skips both. */
    const withPlatformBaseline = process.env.BENCH_NOISY_PLATFORM !== '0';
    // The product's defaults: a key's rate limit (50/s, burst 100) and an organisation's agent runs per second (10).
    // They are what keeps one organisation from flooding the rest.
    const stack = await Stack.start({
      env: {
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        RATE_LIMIT_PER_SECOND: process.env.BENCH_NOISY_KEY_RATE ?? '50',
        RATE_LIMIT_BURST: process.env.BENCH_NOISY_KEY_BURST ?? '100',
        AGENT_RUNS_PER_SECOND: process.env.BENCH_NOISY_ORG_RUNS_PER_SECOND ?? '10',
      },
    });
    const connection = await Connection.connect({ address: context.infra.temporalAddress });
    const temporal = new Client({ connection });
    try {
      const http = new Http(stack.url);
      const quiet = await createTenant(http);
      // The quiet organisation polls each run every ${POLL_MS} ms: its key gets a higher rate than the default (an admin override).
      const quietKeyId = (await http.get(`/admin/v1/orgs/${quiet.orgId}/api-keys`, { token: stack.env.ADMIN_TOKEN })).body.data[0].key_id as string;
      const raised = await http.patch(`/admin/v1/api-keys/${quietKeyId}`, { token: stack.env.ADMIN_TOKEN, body: { rate_limit_per_second: 100_000, rate_limit_burst: 100_000 } });
      if (raised.status !== 200) throw new Error(`raising the quiet key's rate limit: ${raised.status} ${raised.text}`);
      log(`noisy-neighbour: warm-up`);
      await quietLoad(http, quiet, rate, 2);

      const cpuParts = stackCpuParts(context.infra, stack);
      const floodBy = pacedRate > 0 ? `runs at a steady ${pacedRate}/s` : `${noisyClients} noisy clients creating runs`;
      const flooding = { http, rounds, seconds, noisyClients, pacedRate, noisyEndpoints, floodBy, cpuParts };
      const pylonRounds = await roundsAloneThenFlood({ ...flooding, what: 'quiet organisation', quietLoad: () => quietLoad(http, quiet, rate, seconds) });
      const alone = await figuresOf(pylonRounds.alone, temporal);
      const withFlood = await figuresOf(pylonRounds.withFlood, temporal);
      const aloneCpuShare = pylonRounds.aloneCpu;
      const floodCpuShare = pylonRounds.floodCpu;

      let platform: PlatformUnderLoad | undefined;
      let bareRounds: AloneThenFlood | undefined;
      if (withPlatformBaseline) {
        const bare = await startBareWorkflows(temporal, context.infra.temporalAddress);
        try {
          const bareLoad = () => openLoop(rate, seconds, async () => ({ ok: true, latencyMs: await bare.run() }));
          bareRounds = await roundsAloneThenFlood({ ...flooding, what: `bare Temporal workflow at ${rate}/s`, quietLoad: bareLoad });
          const loadPercentOfOneCore = floodCpuShare.total! - aloneCpuShare.total!;
          log(`noisy-neighbour: the bare workflow at ${rate}/s, alone and with ${loadPercentOfOneCore}% of one core burned (what the flood added), ${rounds} rounds`);
          platform = await bareWorkflowUnderLoad({ bare, rate, seconds, rounds, loadPercentOfOneCore });
        } finally {
          await bare.stop();
        }
      }
      const bareAlone = bareRounds && latenciesOf(bareRounds.alone);
      const bareFlood = bareRounds && latenciesOf(bareRounds.withFlood);
      const platformAlone = platform && summarize(platform.alone);
      const platformLoaded = platform && summarize(platform.loaded);

      const rows = [
        { metric: 'quiet run latency p50 (ms)', pylon: withFlood.latencyMs.p50, baseline: alone.latencyMs.p50, digits: 1 },
        { metric: 'quiet run latency p99 (ms)', pylon: withFlood.latencyMs.p99, baseline: alone.latencyMs.p99, digits: 1 },
        { metric: 'quiet run latency mean (ms)', pylon: withFlood.latencyMs.mean, baseline: alone.latencyMs.mean, digits: 1 },
        { metric: 'quiet run POST p50 (ms)', pylon: withFlood.postMs.p50, baseline: alone.postMs.p50, digits: 1 },
        { metric: 'quiet run POST p99 (ms)', pylon: withFlood.postMs.p99, baseline: alone.postMs.p99, digits: 1 },
        { metric: 'quiet runs failed', pylon: withFlood.failed, baseline: alone.failed, digits: 0 },
        ...Object.keys(floodCpuShare).map((part) => ({ metric: `CPU, % of one core: ${part}`, pylon: floodCpuShare[part]!, baseline: aloneCpuShare[part]!, digits: 0 })),
        ...(bareAlone && bareFlood && platformAlone && platformLoaded
          ? [
              { metric: 'bare workflow, flood / alone: p50 (ms)', pylon: bareFlood.p50, baseline: bareAlone.p50, digits: 1 },
              { metric: 'bare workflow, flood / alone: p99 (ms)', pylon: bareFlood.p99, baseline: bareAlone.p99, digits: 1 },
              { metric: 'bare workflow, CPU burned / alone: p50 (ms)', pylon: platformLoaded.p50, baseline: platformAlone.p50, digits: 1 },
              { metric: 'bare workflow, CPU burned / alone: p99 (ms)', pylon: platformLoaded.p99, baseline: platformAlone.p99, digits: 1 },
            ]
          : []),
      ];
      return {
        parameters: { rounds, quietRunsPerSecond: rate, seconds, noisyClients: pacedRate > 0 ? null : noisyClients, noisyPacedRunsPerSecond: pacedRate || null, noisyEndpoints, pollMs: POLL_MS, model: 'local/extractive' },
        rows,
        pylon: { side: 'quiet organisation during the flood', ...withFlood, perRoundP99: pylonRounds.perRound.map((r) => r.floodP99), flood: pylonRounds.flood },
        baseline: {
          side: 'quiet organisation alone',
          ...alone,
          perRoundP99: pylonRounds.perRound.map((r) => r.aloneP99),
          platform: platform && {
            side: 'a bare Temporal workflow (two workflow tasks, one activity; its Worker a process of its own) at the quiet pace',
            alone: bareAlone,
            withFlood: bareFlood,
            perRoundP99: bareRounds!.perRound,
            flood: bareRounds!.flood,
            aloneBeforeCpuBurned: platformAlone,
            loadPercentOfOneCore: platform.loadPercentOfOneCore,
            withCpuBurned: platformLoaded,
          },
        },
        notes: [
          `pylon = with the flood, baseline = the quiet organisation alone on the same stack; goal: ratio ≤ 1.5 for p50 and p99. ${rounds} rounds of alone then flood (a fresh noisy organisation each), their quiet runs pooled: p99 of ${rounds * rate * seconds} runs per side; perRoundP99 gives each round's own (of ${rate * seconds}, its slowest run).`,
          `bare workflow rows: the platform alone (Temporal and a bare Worker, no API, no database), a bare one-activity workflow started at the quiet pace instead of the quiet organisation's runs. "flood / alone": the same ${rounds} rounds of alone then the same flood (a fresh noisy organisation each), on the same Temporal server: what sharing the Temporal server and the cores with the flood costs a tenant that uses nothing of Pylon's. "CPU burned / alone": alone, and while two processes burn as much CPU as the flood added (total CPU with the flood minus alone); what sharing the cores alone costs, before Temporal's or the database's own queues.`,
          `CPU: each process's user + system time (all threads, from /proc) while the quiet organisation's runs were measured, as a share of one core (the machine has ${cpus().length}); the database row counts the PGlite process or every process named postgres on this machine.`,
        ],
      };
    } finally {
      await connection.close();
      await stack.stop();
    }
  },
};
