/**
 * (a) HTTP read: autocannon on `GET /api/v1/agent-runs/{id}` (Bearer key) against the real API,
 * versus a bare Fastify + pg server doing the same single read (baseline-read-server.ts).
 * Same database, same run row, same load: N connections for a fixed duration after a warm-up.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@pylon/temporal';
import { AppProcess } from '../test/support/stack';
import { waitForRun } from '../test/support/tenant';
import { runAutocannon, type AutocannonResult } from './autocannon';
import { envInt, log, round, sleep, type BenchContext, type Benchmark, type BenchReport } from './support';

const POOL_SIZE = 10; // the API's DB_POOL_SIZE default

async function startBaselineServer(databaseUrl: string): Promise<{ process: AppProcess; url: string }> {
  const port = await freePort();
  const logFile = join(mkdtempSync(join(tmpdir(), 'pylon-bench-')), 'baseline-read-server.log');
  const out = createWriteStream(logFile);
  const child = spawn(process.execPath, [join(__dirname, 'baseline-read-server.js')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), POOL_SIZE: String(POOL_SIZE) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Two streams into one file: neither may end it (the other could still write); the exit does.
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  child.once('exit', () => setImmediate(() => out.end()));
  const server = new AppProcess('baseline-read-server', child, logFile);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (!server.running) throw new Error(`the baseline read server exited:\n${server.log()}`);
    const up = await fetch(url).then(
      () => true,
      () => false,
    );
    if (up) return { process: server, url };
    if (Date.now() > deadline) throw new Error(`the baseline read server did not start:\n${server.log()}`);
    await sleep(100);
  }
}

function figures(result: AutocannonResult) {
  return {
    requestsPerSecond: round(result['2xx'] / result.duration, 1),
    requestsPerSecondSampledMean: result.requests.average,
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, mean: round(result.latency.mean), max: result.latency.max },
    completed2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, stats]) => [code, stats.count])),
    durationSeconds: result.duration,
  };
}

export const agentRunReadBenchmark: Benchmark = {
  name: 'agent-run-read',
  description:
    'GET /api/v1/agent-runs/{id} with a valid key on the real API (auth, validation, TypeORM, view) vs a bare Fastify route doing the same single SQL read through pg',
  async run(context: BenchContext): Promise<BenchReport> {
    const durationSeconds = envInt('BENCH_READ_SECONDS', 10);
    const warmupSeconds = envInt('BENCH_READ_WARMUP_SECONDS', 2);
    const connections = envInt('BENCH_READ_CONNECTIONS', 20);

    const stack = await context.stack();
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

    const baseline = await startBaselineServer(context.infra.databaseUrl);
    try {
      const targets = {
        pylon: { url: `${stack.url}/api/v1/agent-runs/${runId}`, headers: { authorization: `Bearer ${tenant.key}` } },
        baseline: { url: `${baseline.url}/orgs/${tenant.orgId}/runs/${runId}`, headers: {} },
      };
      // Both answer the same row before anything is measured.
      const pylonBody = (await (await fetch(targets.pylon.url, { headers: targets.pylon.headers })).json()) as Record<string, unknown>;
      const baselineBody = (await (await fetch(targets.baseline.url)).json()) as Record<string, unknown>;
      assert.equal(pylonBody.run_id, runId);
      assert.equal(baselineBody.id, runId);
      assert.equal(baselineBody.output, pylonBody.output);

      // autocannon fires from a worker thread: with the embedded database, PGlite runs on this process's main thread.
      const load = (target: { url: string; headers: Record<string, string> }, duration: number) =>
        runAutocannon({ url: target.url, headers: target.headers, connections, duration, workers: 1 });

      const results: Record<'pylon' | 'baseline', AutocannonResult> = {} as never;
      for (const side of ['pylon', 'baseline'] as const) {
        log(`${side}: warm-up ${warmupSeconds} s, then ${durationSeconds} s with ${connections} connections`);
        await load(targets[side], warmupSeconds);
        results[side] = await load(targets[side], durationSeconds);
        if (results[side].non2xx || results[side].errors) {
          log(`${side}: ${results[side].non2xx} non-2xx answers and ${results[side].errors} errors (${JSON.stringify(results[side].statusCodeStats)})`);
        }
      }
      const pylon = figures(results.pylon);
      const base = figures(results.baseline);
      return {
        parameters: { connections, durationSeconds, warmupSeconds, pipelining: 1, loadGenerator: 'autocannon (1 worker thread)', baselinePoolSize: POOL_SIZE, apiDbPoolSize: POOL_SIZE, apiLogLevel: stack.env.LOG_LEVEL ?? process.env.LOG_LEVEL },
        rows: [
          { metric: 'requests/s', pylon: pylon.requestsPerSecond, baseline: base.requestsPerSecond, digits: 0 },
          { metric: 'latency p50 (ms)', pylon: pylon.latencyMs.p50, baseline: base.latencyMs.p50 },
          { metric: 'latency p99 (ms)', pylon: pylon.latencyMs.p99, baseline: base.latencyMs.p99 },
          { metric: 'latency mean (ms)', pylon: pylon.latencyMs.mean, baseline: base.latencyMs.mean },
          { metric: 'non-2xx + errors', pylon: pylon.non2xx + pylon.errors, baseline: base.non2xx + base.errors, digits: 0 },
        ],
        pylon: { url: '/api/v1/agent-runs/{id}', ...pylon },
        baseline: { url: '/orgs/{orgId}/runs/{runId}', ...base },
        notes: [
          'pylon does per request: API-key lookup (1 query), run read (1 query), UUID pipe, guard, view mapping; baseline: 1 query.',
          'autocannon latency percentiles have 1 ms resolution; the mean is exact.',
        ],
      };
    } finally {
      await baseline.process.stop();
    }
  },
};
