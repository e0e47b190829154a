/**
 * What the benchmarks share: the context run.ts hands them (infrastructure, one Stack, one tenant),
 * small statistics helpers, and how a result is written (bench/results/<name>.json) and printed.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { Infrastructure } from '../test/support/infrastructure';
import { Http } from '../test/support/http';
import { CLUSTER_TOPOLOGY, Stack } from '../test/support/stack';
import { freePort } from '../apps/embedded/dev-server';
import { createTenant, type Tenant } from '../test/support/tenant';

/** The repository root, seen from dist-test/bench/. */
export const REPO_ROOT = join(__dirname, '..', '..');
export const RESULTS_DIR = join(REPO_ROOT, 'bench', 'results');

export interface Row {
  metric: string;
  pylon: number | null;
  baseline: number | null;
  /** Number of decimals shown in the table. */
  digits?: number;
}

export interface BenchReport {
  /** The database the figures were measured on, when not the infrastructure's (a benchmark that starts its own). */
  database?: string;
  parameters: Record<string, unknown>;
  /** The table: metric | pylon | baseline | ratio (pylon / baseline). */
  rows: Row[];
  /** Raw figures of each side, kept in the JSON. */
  pylon: Record<string, unknown>;
  baseline: Record<string, unknown>;
  notes?: string[];
  /** Further tables printed after the main one (and kept in the JSON), for figures that are not pylon-vs-baseline. */
  tables?: Grid[];
}

export interface Grid {
  title: string;
  header: string[];
  rows: Array<Array<string | number | null>>;
}

export interface Benchmark {
  name: string;
  description: string;
  /** How long the benchmark may take before run.ts's watchdog stops everything (default 2.5 minutes). */
  budgetMinutes?: () => number;
  run(context: BenchContext): Promise<BenchReport>;
}

/**
 * What every benchmark stack adds to its environment: per-key rate limits and organisation caps far above
 * any load here (through the same settings an operator would use), so a benchmark measures Pylon and not
 * its limits. The limits are still applied on every request, as in production.
 */
export const BENCH_LIMITS_ENV: Record<string, string> = {
  RATE_LIMIT_PER_SECOND: '1000000000',
  RATE_LIMIT_BURST: '1000000000',
  WEBHOOK_MAX_ENDPOINTS: '1000000',
  WEBHOOK_TEST_EVENTS_PER_MINUTE: '1000000',
  WEBHOOK_MAX_INFLIGHT_PER_ENDPOINT: '1000000',
  EVENT_STREAMS_PER_KEY: '100000',
};

/** Started once by run.ts; the Stack and the tenant are created on first use and shared by the benchmarks. */
export class BenchContext {
  private stackPromise?: Promise<Stack>;
  private tenantPromise?: Promise<Tenant>;

  /** The worker's Prometheus metrics (`WORKER_METRICS_PORT`), once the stack started; none with two workers. */
  workerMetricsUrl?: string;

  constructor(readonly infra: Infrastructure) {}

  stack(): Promise<Stack> {
    this.stackPromise ??= (async () => {
      const started = Date.now();
      const metricsPort = CLUSTER_TOPOLOGY ? undefined : await freePort();
      const stack = await Stack.start({ env: { ...BENCH_LIMITS_ENV, ...(metricsPort ? { WORKER_METRICS_PORT: String(metricsPort) } : {}) } });
      if (metricsPort) this.workerMetricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
      log(`Pylon API at ${stack.url} and worker on task queue ${stack.env.TEMPORAL_TASK_QUEUE_PREFIX} started in ${Date.now() - started} ms`);
      log(`  logs: ${stack.api.logFile}, ${stack.worker.logFile}`);
      return stack;
    })();
    return this.stackPromise;
  }

  async http(): Promise<Http> {
    return new Http((await this.stack()).url);
  }

  tenant(): Promise<Tenant> {
    this.tenantPromise ??= this.http().then((http) => createTenant(http));
    return this.tenantPromise;
  }

  async stop(): Promise<void> {
    const stack = await this.stackPromise?.catch(() => undefined);
    await stack?.stop();
  }
}

export function log(line: string): void {
  console.log(`[bench] ${line}`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, not ${raw}`);
  return value;
}

/** Nearest-rank percentile of unsorted values. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function mean(values: number[]): number {
  return values.length === 0 ? NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function summarize(values: number[]): { count: number; p50: number; p90: number; p99: number; mean: number; min: number; max: number } {
  return {
    count: values.length,
    p50: round(percentile(values, 50)),
    p90: round(percentile(values, 90)),
    p99: round(percentile(values, 99)),
    mean: round(mean(values)),
    min: round(Math.min(...values)),
    max: round(Math.max(...values)),
  };
}

/**
 * Runs `count` tasks with at most `concurrency` in flight (each "client" takes the next index
 * when its previous task is done); returns the results in index order and the wall time.
 */
export async function runConcurrently<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<{ results: T[]; wallMs: number }> {
  const results: T[] = new Array(count);
  let next = 0;
  const started = performance.now();
  const client = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, client));
  return { results, wallMs: performance.now() - started };
}

function temporalCliVersion(cli: string): string | undefined {
  const result = spawnSync(cli, ['--version'], { encoding: 'utf8', timeout: 5_000 });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

export function machineInfo(infra: Infrastructure, loadAtStart: number[] = loadavg()): Record<string, unknown> {
  const cpuList = cpus();
  return {
    cpus: cpuList.length,
    cpuModel: cpuList[0]?.model,
    totalMemoryGiB: round(totalmem() / 2 ** 30, 1),
    platform: platform(),
    osRelease: release(),
    arch: arch(),
    node: process.version,
    temporalCli: temporalCliVersion(infra.temporalCli),
    /** 1/5/15-minute load averages before anything started: other busy processes skew the figures. */
    loadAverageAtStart: loadAtStart.map((value) => round(value, 2)),
  };
}

export function ratio(row: Row): number | null {
  if (row.pylon === null || row.baseline === null || row.baseline === 0) return null;
  return round(row.pylon / row.baseline, 2);
}

export function formatTable(rows: Row[]): string {
  const cells = rows.map((row) => {
    const show = (value: number | null) => (value === null ? '—' : value.toFixed(row.digits ?? 2));
    const r = ratio(row);
    return [row.metric, show(row.pylon), show(row.baseline), r === null ? '—' : `${r.toFixed(2)}×`];
  });
  const header = ['metric', 'pylon', 'baseline', 'ratio'];
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((line) => line[column].length)));
  const format = (line: string[]) =>
    line.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join(' | ');
  return [format(header), widths.map((width) => '-'.repeat(width)).join('-|-'), ...cells.map(format)].join('\n');
}

/** A plain table: first column left-aligned, the others right-aligned; null shows as —. */
export function formatGrid(grid: Grid): string {
  const cells = grid.rows.map((line) => line.map((cell) => (cell === null ? '—' : String(cell))));
  const widths = grid.header.map((title, column) => Math.max(title.length, ...cells.map((line) => (line[column] ?? '').length)));
  const format = (line: string[]) =>
    line.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(' | ');
  return [grid.title, format(grid.header), widths.map((width) => '-'.repeat(width)).join('-|-'), ...cells.map(format)].join('\n');
}

/** Writes bench/results/<name>.json (through a .tmp file, so a crash never leaves half a file). */
export function writeResult(
  benchmark: Benchmark,
  infra: Infrastructure,
  machine: Record<string, unknown>,
  report: BenchReport,
  durationMs: number,
): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  // The embedded PGlite's figures in <name>.json, a PostgreSQL server's beside them in <name>.postgres.json.
  const database = report.database ?? infra.databaseLabel;
  const file = join(RESULTS_DIR, `${benchmark.name}${database.startsWith('embedded') ? '' : '.postgres'}.json`);
  const document = {
    benchmark: benchmark.name,
    description: benchmark.description,
    date: new Date().toISOString(),
    benchmarkDurationSeconds: round(durationMs / 1000, 1),
    machine,
    database,
    parameters: report.parameters,
    table: report.rows.map((row) => ({ metric: row.metric, pylon: row.pylon, baseline: row.baseline, ratio: ratio(row) })),
    ...(report.tables ? { tables: report.tables } : {}),
    pylon: report.pylon,
    baseline: report.baseline,
    notes: report.notes ?? [],
  };
  writeFileSync(`${file}.tmp`, `${JSON.stringify(document, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  return file;
}

/** A workflow's history as `+<ms since start> <event type>` lines: where its time went. */
export async function workflowTimeline(client: Client, workflowId: string): Promise<{ workflowId: string; events: string[] }> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const times = (history.events ?? []).map((event) => {
    const at = event.eventTime!;
    return { at: Number(at.seconds ?? 0) * 1000 + (at.nanos ?? 0) / 1e6, type: temporal.api.enums.v1.EventType[event.eventType ?? 0] };
  });
  const first = times[0]?.at ?? 0;
  return { workflowId, events: times.map((event) => `+${(event.at - first).toFixed(1)} ms ${event.type?.replace(/^EVENT_TYPE_/, '')}`) };
}

/** A bare Worker in the benchmark process logs only warnings (Temporal's runtime can be installed once). */
export function quietTemporalRuntime(): void {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    /* already installed */
  }
}

/**
 * Open loop: starts `start(i)` every 1000 / rate ms for `seconds`, whatever the earlier ones are doing,
 * and waits for them all: the latency a user sees at that pace, with no coordinated omission.
 */
export async function openLoop<T>(rate: number, seconds: number, start: (index: number) => Promise<T>): Promise<T[]> {
  const pending: Array<Promise<T>> = [];
  const started = performance.now();
  for (let i = 0; i < rate * seconds; i++) {
    await sleep(Math.max(0, started + (i * 1000) / rate - performance.now()));
    pending.push(start(i));
  }
  return Promise.all(pending);
}
