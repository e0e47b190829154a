/**
 * (a) HTTP read: autocannon on `GET /api/v1/agent-runs/{id}` (Bearer key) against the real API,
 * versus a bare Fastify + pg server doing the same single read (baseline-read-server.ts).
 * Same database, same run row, same load: N connections for a fixed duration after a warm-up.
 * The baseline sends its read unnamed; Pylon prepares its read, so a third side, the bare route
 * with the read prepared too, shows what is left of the API's own cost; a fourth, a bare Nest route
 * with that prepared read (baseline-nest-read-server.ts), shows the floor of the framework the API is built on.
 */
import assert from 'node:assert/strict';
import { waitForRun } from '../test/support/tenant';
import { startBaselineServer } from './baseline-server';
import { runAutocannon, type AutocannonResult } from './autocannon';
import { measureCpu, stackCpuParts, type CpuParts } from './process-cpu';
import { envInt, log, round, type BenchContext, type Benchmark, type BenchReport } from './support';

const POOL_SIZE = 10; // the API's DB_POOL_SIZE default

const SIDES = ['pylon', 'baseline', 'preparedBaseline', 'nestBaseline'] as const;
type Side = (typeof SIDES)[number];

const rate = (result: AutocannonResult) => round(result['2xx'] / result.duration, 1);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** One side's figures over its rounds; CPU per request by process. */
function figures(rounds: { result: AutocannonResult; cpuMs: Record<string, number> }[]) {
  const results = rounds.map((turn) => turn.result);
  const sum = (pick: (result: AutocannonResult) => number) => results.reduce((total, result) => total + pick(result), 0);
  const completed = sum((result) => result['2xx']);
  const parts = Object.keys(rounds[0]!.cpuMs);
  return {
    requestsPerSecond: round(completed / sum((result) => result.duration), 1),
    requestsPerSecondPerRound: results.map(rate),
    latencyMs: {
      p50: median(results.map((result) => result.latency.p50)),
      p99: median(results.map((result) => result.latency.p99)),
      mean: round(sum((result) => result.latency.mean * result.latency.totalCount) / sum((result) => result.latency.totalCount)),
      max: Math.max(...results.map((result) => result.latency.max)),
    },
    cpuMsPerRequest: Object.fromEntries(parts.map((part) => [part, rounds.reduce((total, turn) => total + turn.cpuMs[part]!, 0) / completed])),
    completed2xx: completed,
    non2xx: sum((result) => result.non2xx),
    errors: sum((result) => result.errors),
    timeouts: sum((result) => result.timeouts),
  };
}

/** A run of the benchmark tenant that has succeeded, to be read: its id. */
export async function succeededRun(context: BenchContext): Promise<string> {
  const http = await context.http();
  const tenant = await context.tenant();
  const created = await http.post('/api/v1/agent-runs', {
    token: tenant.key,
    body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input: 'What is Pylon? A benchmark reads this run.' },
  });
  assert.equal(created.status, 200, created.text);
  const runId = created.body.run_id as string;
  const { run } = await waitForRun(http, tenant.key, runId);
  assert.equal(run.status, 'succeeded', JSON.stringify(run));
  return runId;
}

export const agentRunReadBenchmark: Benchmark = {
  name: 'agent-run-read',
  description:
    'GET /api/v1/agent-runs/{id} with a valid key on the real API (auth, validation, TypeORM, view) vs a bare Fastify route doing the same single SQL read through pg',
  async run(context: BenchContext): Promise<BenchReport> {
    const roundCount = envInt('BENCH_READ_ROUNDS', 3);
    const durationSeconds = envInt('BENCH_READ_SECONDS', 5);
    const warmupSeconds = envInt('BENCH_READ_WARMUP_SECONDS', 2);
    const connections = envInt('BENCH_READ_CONNECTIONS', 20);

    const stack = await context.stack();
    const http = await context.http();
    const tenant = await context.tenant();

    const runId = await succeededRun(context);

    const baselineEnv = { DATABASE_URL: context.infra.databaseUrl, POOL_SIZE: String(POOL_SIZE) };
    const baseline = await startBaselineServer('baseline-read-server', baselineEnv);
    const nestBaseline = await startBaselineServer('baseline-nest-read-server', baselineEnv).catch(async (error: unknown) => {
      await baseline.process.stop();
      throw error;
    });
    try {
      const targets = {
        pylon: { url: `${stack.url}/api/v1/agent-runs/${runId}`, headers: { authorization: `Bearer ${tenant.key}` } },
        baseline: { url: `${baseline.url}/orgs/${tenant.orgId}/runs/${runId}`, headers: {} },
        preparedBaseline: { url: `${baseline.url}/prepared/orgs/${tenant.orgId}/runs/${runId}`, headers: {} },
        nestBaseline: { url: `${nestBaseline.url}/prepared/orgs/${tenant.orgId}/runs/${runId}`, headers: {} },
      };
      // Both answer the same row before anything is measured.
      const pylonBody = (await (await fetch(targets.pylon.url, { headers: targets.pylon.headers })).json()) as Record<string, unknown>;
      assert.equal(pylonBody.run_id, runId);
      for (const side of ['baseline', 'preparedBaseline', 'nestBaseline'] as const) {
        const baselineBody = (await (await fetch(targets[side].url)).json()) as Record<string, unknown>;
        assert.equal(baselineBody.id, runId);
        assert.equal(baselineBody.output, pylonBody.output);
        assert.equal(baselineBody.agentVersionId, pylonBody.agent_version_id);
      }

      // autocannon fires from a worker thread: with the embedded database, PGlite runs on this process's main thread.
      const load = (target: { url: string; headers: Record<string, string> }, duration: number) =>
        runAutocannon({ url: target.url, headers: target.headers, connections, duration, workers: 1 });
      // Each side's CPU, by process: the server answering (the API or the baseline server), the database, this process.
      const stackParts = stackCpuParts(context.infra, stack);
      const cpuParts = (side: Side): CpuParts => ({
        server: side === 'pylon' ? stackParts['Pylon API']! : () => pidOf(side === 'nestBaseline' ? nestBaseline : baseline),
        database: stackParts.database!,
        'benchmark process (autocannon)': 'this process',
        'Pylon worker and Temporal (idle)': () =>
          [stackParts['Pylon worker'], stackParts['Temporal server']].flatMap((part) => (typeof part === 'function' ? part() : [])),
      });

      for (const side of SIDES) {
        log(`${side}: warm-up ${warmupSeconds} s with ${connections} connections`);
        await load(targets[side], warmupSeconds);
      }
      // The sides take turns, so a neighbour's burst on this shared machine falls on both rather than one.
      const rounds: Record<Side, { result: AutocannonResult; cpuMs: Record<string, number> }[]> = {
        pylon: [],
        baseline: [],
        preparedBaseline: [],
        nestBaseline: [],
      };
      for (let round = 1; round <= roundCount; round++) {
        for (const side of SIDES) {
          const cpu = measureCpu(cpuParts(side));
          const result = await load(targets[side], durationSeconds);
          rounds[side].push({ result, cpuMs: cpu() });
          if (result.non2xx || result.errors)
            log(`${side}: ${result.non2xx} non-2xx answers and ${result.errors} errors (${JSON.stringify(result.statusCodeStats)})`);
        }
        log(`round ${round}: ${SIDES.map((side) => `${side} ${rate(rounds[side].at(-1)!.result)}`).join(', ')} req/s`);
      }
      const pylon = figures(rounds.pylon);
      const base = figures(rounds.baseline);
      const preparedBase = figures(rounds.preparedBaseline);
      const nestBase = figures(rounds.nestBaseline);
      const cpuRows = Object.keys(pylon.cpuMsPerRequest).map((part) => ({
        metric: `CPU per request (µs): ${part}`,
        pylon: round(pylon.cpuMsPerRequest[part]! * 1_000, 0),
        baseline: round(base.cpuMsPerRequest[part]! * 1_000, 0),
        digits: 0,
      }));
      return {
        parameters: {
          connections,
          rounds: roundCount,
          secondsPerRound: durationSeconds,
          warmupSeconds,
          pipelining: 1,
          loadGenerator: 'autocannon (1 worker thread)',
          baselinePoolSize: POOL_SIZE,
          apiDbPoolSize: POOL_SIZE,
          apiLogLevel: stack.env.LOG_LEVEL ?? process.env.LOG_LEVEL,
        },
        rows: [
          { metric: 'requests/s', pylon: pylon.requestsPerSecond, baseline: base.requestsPerSecond, digits: 0 },
          { metric: 'latency p50 (ms), median round', pylon: pylon.latencyMs.p50, baseline: base.latencyMs.p50 },
          { metric: 'latency p99 (ms), median round', pylon: pylon.latencyMs.p99, baseline: base.latencyMs.p99 },
          { metric: 'latency mean (ms)', pylon: pylon.latencyMs.mean, baseline: base.latencyMs.mean },
          { metric: 'non-2xx + errors', pylon: pylon.non2xx + pylon.errors, baseline: base.non2xx + base.errors, digits: 0 },
          ...cpuRows,
          // Against the bare route whose read is prepared as Pylon's is: what the API's own layers cost.
          { metric: 'vs bare route, read prepared: requests/s', pylon: pylon.requestsPerSecond, baseline: preparedBase.requestsPerSecond, digits: 0 },
          { metric: 'vs bare route, read prepared: latency mean (ms)', pylon: pylon.latencyMs.mean, baseline: preparedBase.latencyMs.mean },
          ...['server', 'database'].map((part) => ({
            metric: `vs bare route, read prepared: CPU per request (µs): ${part}`,
            pylon: round(pylon.cpuMsPerRequest[part]! * 1_000, 0),
            baseline: round(preparedBase.cpuMsPerRequest[part]! * 1_000, 0),
            digits: 0,
          })),
          // The floor under any Nest application: the same prepared read behind Nest's router alone.
          {
            metric: 'bare Nest route vs bare route, read prepared: requests/s',
            pylon: nestBase.requestsPerSecond,
            baseline: preparedBase.requestsPerSecond,
            digits: 0,
          },
          {
            metric: 'vs bare Nest route, read prepared: requests/s',
            pylon: pylon.requestsPerSecond,
            baseline: nestBase.requestsPerSecond,
            digits: 0,
          },
          {
            metric: 'vs bare Nest route, read prepared: CPU per request (µs): server',
            pylon: round(pylon.cpuMsPerRequest.server! * 1_000, 0),
            baseline: round(nestBase.cpuMsPerRequest.server! * 1_000, 0),
            digits: 0,
          },
        ],
        pylon: {
          url: '/api/v1/agent-runs/{id}',
          ...pylon,
          ratioPerRound: rounds.pylon.map((turn, index) => round(rate(turn.result) / rate(rounds.baseline[index]!.result), 3)),
        },
        baseline: {
          url: '/orgs/{orgId}/runs/{runId}',
          statement: 'unnamed',
          ...base,
          readPrepared: { url: '/prepared/orgs/{orgId}/runs/{runId}', ...preparedBase },
          nestReadPrepared: { url: '/prepared/orgs/{orgId}/runs/{runId}', framework: 'Nest on Fastify, no guard, pipe or hook', ...nestBase },
        },
        notes: [
          'pylon does per request: key check (cached), rate-limit lease, UUID pipe, guard, run read (1 prepared statement), view mapping, access log and metrics; baseline: 1 query, sent unnamed as a bare route sends it (parsed and planned by the server each time); the rows "vs bare route, read prepared" compare with the same route sending it as a named statement; the "bare Nest route" is that prepared read behind a Nest controller alone (the framework\'s floor).',
          'The sides alternate for the rounds; requests/s and the mean latency are over all rounds, p50/p99 are the median round’s.',
          'autocannon latency percentiles have 1 ms resolution; the mean is exact.',
        ],
      };
    } finally {
      await Promise.all([baseline.process.stop(), nestBaseline.process.stop()]);
    }
  },
};

function pidOf(server: { process: { child: { pid?: number } } }): number[] {
  return server.process.child.pid ? [server.process.child.pid] : [];
}
