/**
 * (b) End to end: C clients create runs (POST) and follow each run's event stream until it succeeds
 * (or, with BENCH_E2E_WAIT=poll, poll GET every P ms),
 * N runs in all, on `local/extractive` (instant, offline). Baseline on the same Temporal server:
 * a bare client `execute`s a one-activity workflow on a bare Worker (own task queue), same C and N.
 */
import { randomBytes } from 'node:crypto';
import { EventSource } from 'eventsource';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { agentRunWorkflowId } from '@pylon/contracts';
import type { Http } from '../test/support/http';
import type { Tenant } from '../test/support/tenant';
import type { BaselineActivities, baselineWorkflow } from './baseline-workflow';
import { StatementTally, measureStatements } from './db-statements';
import { measureCpu, stackCpuParts, type CpuParts } from './process-cpu';
import {
  envInt,
  log,
  mean,
  quietTemporalRuntime,
  round,
  runConcurrently,
  sleep,
  summarize,
  workflowTimeline,
  type BenchContext,
  type Benchmark,
  type BenchReport,
} from './support';

const RUN_TIMEOUT_MS = 30_000;
const INPUT = 'What is Pylon? Answer in one sentence.';

interface RunOutcome {
  ok: boolean;
  latencyMs: number;
  workflowId?: string;
  error?: string;
  polls?: number;
  /** Pylon only: updated_at − created_at of the finished run, as the API recorded it. */
  projectionMs?: number;
  /** Pylon only: how long the POST took. */
  postMs?: number;
}

/** How the Pylon client learns that its run is done: polling GET, or the run's event stream (SSE). */
type WaitMode = 'poll' | 'events';

async function pylonRun(http: Http, tenant: Tenant, wait: WaitMode, pollMs: number): Promise<RunOutcome> {
  const started = performance.now();
  const created = await http.post('/api/v1/agent-runs', {
    token: tenant.key,
    body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input: INPUT },
  });
  if (created.status !== 200) return { ok: false, latencyMs: performance.now() - started, error: `POST ${created.status}: ${created.text}` };
  const postMs = performance.now() - started;
  const runId = created.body.run_id as string;
  const finished = wait === 'events' ? await followEvents(http.baseUrl, tenant.key, runId) : await poll(http, tenant.key, runId, pollMs, started);
  if ('error' in finished) return { ok: false, latencyMs: performance.now() - started, error: finished.error };
  const { run, polls } = finished;
  return {
    ok: run.status === 'succeeded',
    latencyMs: performance.now() - started,
    workflowId: agentRunWorkflowId(runId),
    polls,
    postMs,
    projectionMs: Date.parse(run.updated_at) - Date.parse(run.created_at),
    error: run.status === 'failed' ? (run.error ?? 'failed') : undefined,
  };
}

interface FinishedRun {
  status: string;
  error: string | null;
  created_at: string;
  updated_at: string;
}

async function poll(
  http: Http,
  key: string,
  runId: string,
  pollMs: number,
  started: number,
): Promise<{ run: FinishedRun; polls: number } | { error: string }> {
  for (let polls = 1; ; polls++) {
    const response = await http.get(`/api/v1/agent-runs/${runId}`, { token: key });
    if (response.status !== 200) return { error: `GET ${response.status}: ${response.text}` };
    if (response.body.status === 'succeeded' || response.body.status === 'failed') return { run: response.body, polls };
    if (performance.now() - started > RUN_TIMEOUT_MS) return { error: `still ${response.body.status} after ${RUN_TIMEOUT_MS} ms` };
    await sleep(pollMs);
  }
}

/** Follows the run's server-sent events with `eventsource` until the terminal one, whose data is the run as GET returns it. */
export function followEvents(baseUrl: string, key: string, runId: string): Promise<{ run: FinishedRun; polls: number } | { error: string }> {
  const source = new EventSource(`${baseUrl}/api/v1/agent-runs/${runId}/events`, {
    fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, authorization: `Bearer ${key}` } }),
  });
  return new Promise<{ run: FinishedRun; polls: number } | { error: string }>((resolve) => {
    const timer = setTimeout(() => resolve({ error: `no terminal event within ${RUN_TIMEOUT_MS} ms` }), RUN_TIMEOUT_MS);
    const finish = (outcome: { run: FinishedRun; polls: number } | { error: string }) => {
      clearTimeout(timer);
      source.close();
      resolve(outcome);
    };
    for (const type of ['succeeded', 'failed'])
      source.addEventListener(type, (event) => finish({ run: JSON.parse(event.data) as FinishedRun, polls: 0 }));
    source.addEventListener('error', (event) => {
      if (event.code) finish({ error: `events ${event.code}: ${event.message}` });
    });
  });
}

async function baselineRun(client: Client, taskQueue: string, workflowId: string): Promise<RunOutcome> {
  const started = performance.now();
  try {
    const output = await client.workflow.execute<typeof baselineWorkflow>('baselineWorkflow', {
      taskQueue,
      workflowId,
      args: [INPUT],
      workflowExecutionTimeout: RUN_TIMEOUT_MS,
    });
    const ok = output === INPUT.toUpperCase();
    return { ok, latencyMs: performance.now() - started, workflowId, error: ok ? undefined : `unexpected output ${output}` };
  } catch (error) {
    return { ok: false, latencyMs: performance.now() - started, workflowId, error: String(error) };
  }
}

/** Temporal's own view of each workflow: start → close, in ms. */
async function workflowDurations(client: Client, outcomes: RunOutcome[], concurrency: number): Promise<number[]> {
  const ids = outcomes.filter((outcome) => outcome.ok && outcome.workflowId).map((outcome) => outcome.workflowId!);
  const { results } = await runConcurrently(ids.length, concurrency, async (index) => {
    const description = await client.workflow.getHandle(ids[index]).describe();
    return description.closeTime ? description.closeTime.getTime() - description.startTime.getTime() : NaN;
  });
  return results.filter((value) => Number.isFinite(value));
}

/** The history of the slowest run, as offsets from its first event: where did the time go? */
async function slowestRunTimeline(client: Client, outcomes: RunOutcome[]) {
  const slowest = outcomes.filter((outcome) => outcome.ok && outcome.workflowId).sort((a, b) => b.latencyMs - a.latencyMs)[0];
  if (!slowest) return undefined;
  return { latencyMs: round(slowest.latencyMs, 1), ...(await workflowTimeline(client, slowest.workflowId!)) };
}

function sideFigures(outcomes: RunOutcome[], wallMs: number, durations: number[]) {
  const ok = outcomes.filter((outcome) => outcome.ok);
  const errors = [...new Set(outcomes.filter((outcome) => !outcome.ok).map((outcome) => outcome.error))].slice(0, 5);
  return {
    runs: outcomes.length,
    succeeded: ok.length,
    failed: outcomes.length - ok.length,
    firstErrors: errors,
    wallSeconds: round(wallMs / 1000, 2),
    runsPerSecond: round((ok.length / wallMs) * 1000, 2),
    latencyMs: summarize(ok.map((outcome) => outcome.latencyMs)),
    workflowStartToCloseMs: summarize(durations),
  };
}

export const agentRunE2eBenchmark: Benchmark = {
  name: 'agent-run-e2e',
  description:
    'create a run (POST) and follow its event stream (or poll GET) until it ends, on the real API + worker (local/extractive), vs a bare Temporal client executing a one-activity workflow on a bare Worker, the two sides taking turns in rounds',
  async run(context: BenchContext): Promise<BenchReport> {
    const concurrency = envInt('BENCH_E2E_CONCURRENCY', 8);
    const count = envInt('BENCH_E2E_RUNS', 400);
    const rounds = Math.min(envInt('BENCH_E2E_ROUNDS', 4), count);
    const pollMs = envInt('BENCH_E2E_POLL_MS', 20);
    const wait: WaitMode = process.env.BENCH_E2E_WAIT === 'poll' ? 'poll' : 'events';
    const warmup = envInt('BENCH_E2E_WARMUP', 8 * concurrency);

    const stack = await context.stack();
    const http = await context.http();
    const tenant = await context.tenant();
    const temporalAddress = context.infra.temporalAddress;
    const connection = await Connection.connect({ address: temporalAddress }).catch((error: unknown) => {
      throw new Error(`could not connect to the Temporal dev server at ${temporalAddress} (did it exit?): ${String(error)}`);
    });
    const client = new Client({ connection });

    const cpuParts = stackCpuParts(context.infra, stack);
    // The baseline: a bare Worker in this process on its own task queue, on the same Temporal server.
    quietTemporalRuntime();
    const taskQueue = `bench-baseline-${randomBytes(4).toString('hex')}`;
    const workerConnection = await NativeConnection.connect({ address: temporalAddress });
    const activities: BaselineActivities = { shout: async (input) => input.toUpperCase() };
    const worker = await Worker.create({
      connection: workerConnection,
      taskQueue,
      workflowsPath: require.resolve('./baseline-workflow'),
      activities,
    }).catch(async (error: unknown) => {
      await Promise.all([workerConnection.close(), client.connection.close()]);
      throw error;
    });
    const workerRunning = worker.run();
    try {
      const waiting = wait === 'events' ? "following each run's event stream" : `polling every ${pollMs} ms`;
      log(`pylon: ${warmup} warm-up runs; baseline: ${warmup} warm-up runs (task queue ${taskQueue})`);
      await runConcurrently(warmup, concurrency, () => pylonRun(http, tenant, wait, pollMs));
      await runConcurrently(warmup, concurrency, (index) => baselineRun(client, taskQueue, `${taskQueue}-warmup-${index}`));

      // The sides take turns, in alternating order, so that a slow spell of the machine falls on both.
      const metricsUrls = { api: `${http.baseUrl}/metrics`, worker: context.workerMetricsUrl };
      const statements = new StatementTally(metricsUrls);
      const pylon = new Side();
      const baseline = new Side();
      const perRound = Math.ceil(count / rounds);
      log(`${rounds} rounds of ${perRound} runs per side with ${concurrency} clients; pylon clients ${waiting}`);
      for (let turn = 0; turn < rounds; turn++) {
        const runs = Math.min(perRound, count - turn * perRound);
        const pylonTurn = async () => {
          await statements.start();
          await pylon.take(cpuParts, runs, concurrency, () => pylonRun(http, tenant, wait, pollMs));
          await statements.stop();
        };
        const baselineTurn = () =>
          baseline.take(cpuParts, runs, concurrency, (index) => baselineRun(client, taskQueue, `${taskQueue}-${turn}-${index}`));
        if (turn % 2 === 0) await pylonTurn().then(baselineTurn);
        else await baselineTurn().then(pylonTurn);
        log(`round ${turn + 1}: runs/s pylon ${pylon.lastRunsPerSecond()} / baseline ${baseline.lastRunsPerSecond()}`);
      }
      const statementsPerRun = statements.perRun(pylon.results.length);
      // One run alone, its statements listed: the measured runs' averages include the processes' background work.
      const oneRunStatements = await measureStatements(metricsUrls);
      const traced = await pylonRun(http, tenant, wait, pollMs);
      const statementsOfOneRun = { ok: traced.ok, ...(await oneRunStatements(1)) };
      for (const [name, side] of [
        ['pylon', pylon],
        ['baseline', baseline],
      ] as const) {
        const failed = side.results.filter((outcome) => !outcome.ok);
        if (failed.length) log(`${name}: ${failed.length} runs failed, e.g. ${failed[0]!.error}`);
      }
      const p = sideFigures(pylon.results, pylon.wallMs, await workflowDurations(client, pylon.results, concurrency));
      const b = sideFigures(baseline.results, baseline.wallMs, await workflowDurations(client, baseline.results, concurrency));
      const pylonOk = pylon.results.filter((outcome) => outcome.ok);
      const pylonCpuPerRun = pylon.cpuPerRun();
      const baselineCpuPerRun = baseline.cpuPerRun();
      const roundsByRatio = pylon.rounds
        .map((figures, index) => ({ pylon: figures.runsPerSecond, baseline: baseline.rounds[index]!.runsPerSecond }))
        .sort((x, y) => x.pylon / x.baseline - y.pylon / y.baseline);
      const cpuRows = [...Object.keys(cpuParts), 'total'].map((part) => ({
        metric: `CPU per run (ms): ${part}`,
        pylon: part === 'total' ? Object.values(pylonCpuPerRun).reduce((a, b) => a + b, 0) : pylonCpuPerRun[part]!,
        baseline: part === 'total' ? Object.values(baselineCpuPerRun).reduce((a, b) => a + b, 0) : baselineCpuPerRun[part]!,
        digits: 1,
      }));
      return {
        parameters: {
          concurrency,
          runs: count,
          rounds,
          warmupRunsPerSide: warmup,
          wait,
          pollIntervalMs: wait === 'poll' ? pollMs : null,
          model: 'local/extractive',
          runTimeoutMs: RUN_TIMEOUT_MS,
        },
        rows: [
          { metric: 'runs/s', pylon: p.runsPerSecond, baseline: b.runsPerSecond },
          { metric: 'runs/s, the round of the lowest ratio', ...roundsByRatio[0]! },
          { metric: 'runs/s, the round of the highest ratio', ...roundsByRatio[roundsByRatio.length - 1]! },
          { metric: 'latency p50 (ms)', pylon: p.latencyMs.p50, baseline: b.latencyMs.p50, digits: 1 },
          { metric: 'latency p99 (ms)', pylon: p.latencyMs.p99, baseline: b.latencyMs.p99, digits: 1 },
          { metric: 'latency mean (ms)', pylon: p.latencyMs.mean, baseline: b.latencyMs.mean, digits: 1 },
          { metric: 'workflow start→close p50 (ms)', pylon: p.workflowStartToCloseMs.p50, baseline: b.workflowStartToCloseMs.p50, digits: 1 },
          { metric: 'workflow start→close p99 (ms)', pylon: p.workflowStartToCloseMs.p99, baseline: b.workflowStartToCloseMs.p99, digits: 1 },
          { metric: 'failed runs', pylon: p.failed, baseline: b.failed, digits: 0 },
          ...cpuRows,
          ...Object.entries(statementsPerRun).map(([process, figures]) => ({
            metric: `DB statements per run: ${process}`,
            pylon: figures.total,
            baseline: 0,
            digits: 2,
          })),
        ],
        pylon: {
          ...p,
          taskQueue: stack.env.TEMPORAL_TASK_QUEUE_PREFIX,
          pollsPerRunMean: round(mean(pylonOk.map((outcome) => outcome.polls ?? 0))),
          postLatencyMs: summarize(pylonOk.map((outcome) => outcome.postMs ?? NaN).filter(Number.isFinite)),
          projectionCreatedToUpdatedMs: summarize(pylonOk.map((outcome) => outcome.projectionMs ?? NaN).filter(Number.isFinite)),
          slowestRun: await slowestRunTimeline(client, pylon.results),
          rounds: pylon.rounds,
          dbStatementsPerRun: statementsPerRun,
          dbStatementsOfOneRun: statementsOfOneRun,
        },
        baseline: {
          ...b,
          taskQueue,
          workflow: 'baselineWorkflow (one activity: uppercase the input)',
          rounds: baseline.rounds,
          slowestRun: await slowestRunTimeline(client, baseline.results),
        },
        notes: [
          wait === 'events'
            ? "pylon latency = POST + the run's event stream (GET /api/v1/agent-runs/{id}/events, SSE) until its terminal event; baseline latency = client.workflow.execute (start + long-poll of the result)."
            : `pylon latency = POST + polling until succeeded (GET every ${pollMs} ms): about ${pollMs / 2} ms of it is polling granularity; baseline latency = client.workflow.execute (start + long-poll of the result).`,
          "pylon workflow: 1 workflow task running 1 local activity (takeTurn: marks the run running, asks the in-process model, records the answer with the run's events, its webhook event and deliveries), with database reads/writes; baseline workflow: 2 workflow tasks and 1 activity, no database.",
          `the sides take turns: ${rounds} rounds of ${perRound} runs per side, Pylon first in odd rounds and the baseline first in even ones; each side's figures are over all its rounds, and each round's runs/s are in pylon.rounds and baseline.rounds.`,
          "the baseline Worker runs inside the benchmark process (idle during Pylon's turns, as the Pylon worker is during the baseline's); the Pylon worker is its own process.",
          "CPU per run: each process's user + system time (all threads, from /proc) over the measured runs of a side, divided by their number; the database row counts the PGlite process, or every process named postgres on this machine (none for a remote server); the benchmark process holds the clients of both sides and the baseline's Worker.",
          "DB statements per run: each process's pylon_db_statements_total (every statement its pool sent, transaction control included) over the measured runs, divided by their number; pylon.dbStatementsOfOneRun lists those of one run made alone afterwards.",
          'pylon workflow start→close can exceed the client latency: the run is succeeded in the database when the local activity ends, before its workflow task completes.',
        ],
      };
    } finally {
      worker.shutdown();
      await workerRunning;
      await workerConnection.close();
      await client.connection.close();
    }
  },
};

/** One side's runs over the rounds: outcomes, wall time and each part's CPU, added up; each round's runs/s. */
class Side {
  readonly results: RunOutcome[] = [];
  readonly rounds: Array<{ runs: number; wallMs: number; runsPerSecond: number }> = [];
  readonly cpuMs: Record<string, number> = {};
  wallMs = 0;

  async take(parts: CpuParts, runs: number, concurrency: number, run: (index: number) => Promise<RunOutcome>): Promise<void> {
    const cpu = measureCpu(parts);
    const { results, wallMs } = await runConcurrently(runs, concurrency, run);
    for (const [part, ms] of Object.entries(cpu())) this.cpuMs[part] = (this.cpuMs[part] ?? 0) + ms;
    this.results.push(...results);
    this.wallMs += wallMs;
    const succeeded = results.filter((outcome) => outcome.ok).length;
    this.rounds.push({ runs, wallMs: round(wallMs, 1), runsPerSecond: round((succeeded / wallMs) * 1000, 2) });
  }

  lastRunsPerSecond(): number | undefined {
    return this.rounds[this.rounds.length - 1]?.runsPerSecond;
  }

  cpuPerRun(): Record<string, number> {
    return Object.fromEntries(Object.entries(this.cpuMs).map(([part, ms]) => [part, round(ms / this.results.length, 2)]));
  }
}
