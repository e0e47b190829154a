/**
 * `npm run bench [name]`: starts the infrastructure once (embedded PGlite, or a fresh database on
 * DATABASE_URL, plus a Temporal dev server), runs the selected benchmarks (default all), writes
 * bench/results/<name>.json, prints a table per benchmark, and stops everything.
 */
import { requireSupportedNode } from '@pylon/config';
import { loadavg } from 'node:os';
import { relative } from 'node:path';
import { startInfrastructure, type Infrastructure } from '../test/support/infrastructure';
import { agentRunE2eBenchmark } from './agent-run-e2e.bench';
import { agentRunReadBenchmark } from './agent-run-read.bench';
import { requestCostBenchmark } from './request-cost.bench';
import { batchDrainBenchmark } from './batch-drain.bench';
import { knowledgeSearchBenchmark, knowledgeSearchClusteredBenchmark } from './knowledge-search.bench';
import { temporalDispatchBenchmark } from './temporal-dispatch.bench';
import { noisyNeighbourBenchmark } from './noisy-neighbour.bench';
import { pgliteServerBenchmark } from './pglite-server.bench';
import { scaleOutBenchmark } from './scale-out.bench';
import { vectorIndexDesignsBenchmark } from './vector-index-designs.bench';
import { webhooksBenchmark } from './webhooks.bench';
import { mcpToolsBenchmark } from './mcp-tools.bench';
import { ingestFilesBenchmark } from './ingest-files.bench';
import { usageBenchmark } from './usage.bench';
import { waitingRunsBenchmark } from './waiting-runs.bench';
import { BenchContext, REPO_ROOT, formatGrid, formatTable, log, machineInfo, writeResult, type Benchmark } from './support';

const BENCHMARKS: Benchmark[] = [
  agentRunReadBenchmark,
  requestCostBenchmark,
  agentRunE2eBenchmark,
  knowledgeSearchBenchmark,
  knowledgeSearchClusteredBenchmark,
  webhooksBenchmark,
  noisyNeighbourBenchmark,
  batchDrainBenchmark,
  temporalDispatchBenchmark,
  vectorIndexDesignsBenchmark,
  pgliteServerBenchmark,
  scaleOutBenchmark,
  usageBenchmark,
  waitingRunsBenchmark,
  mcpToolsBenchmark,
  ingestFilesBenchmark,
];
/** Start-up and shutdown take well under a minute; each benchmark declares its own budget (default 2.5 minutes). */
const STARTUP_MINUTES = 1;
const DEFAULT_BUDGET_MINUTES = 2.5;

/** Past this, give up: BENCH_WATCHDOG_MINUTES, or start-up plus the budgets of the selected benchmarks. */
function watchdogMs(selected: Benchmark[]): number {
  const override = Number(process.env.BENCH_WATCHDOG_MINUTES);
  if (override > 0) return override * 60_000;
  return (STARTUP_MINUTES + selected.reduce((sum, benchmark) => sum + (benchmark.budgetMinutes?.() ?? DEFAULT_BUDGET_MINUTES), 0)) * 60_000;
}

function select(filter: string | undefined): Benchmark[] {
  if (!filter) return BENCHMARKS;
  const exact = BENCHMARKS.filter((benchmark) => benchmark.name === filter);
  const selected = exact.length ? exact : BENCHMARKS.filter((benchmark) => benchmark.name.includes(filter));
  if (selected.length === 0) {
    throw new Error(`no benchmark matches "${filter}"; there are: ${BENCHMARKS.map((benchmark) => benchmark.name).join(', ')}`);
  }
  return selected;
}

async function main(): Promise<number> {
  requireSupportedNode();
  const selected = select(process.argv[2]);
  const loadAtStart = loadavg();
  const started = Date.now();
  let infra: Infrastructure | undefined;
  let context: BenchContext | undefined;
  let stopping: Promise<void> | undefined;
  const stopAll = () =>
    (stopping ??= (async () => {
      await context?.stop().catch((error: unknown) => console.error('could not stop the stack:', error));
      await infra?.stop().catch((error: unknown) => console.error('could not stop the infrastructure:', error));
    })());

  const abort = (why: string) => {
    console.error(`[bench] ${why}: stopping everything`);
    const hardExit = setTimeout(() => process.exit(1), 20_000);
    hardExit.unref();
    void stopAll().finally(() => process.exit(1));
  };
  // A crash must not leave the Temporal dev server, the API or the worker running.
  process.on('uncaughtException', (error) => {
    console.error(error);
    abort('uncaught exception');
  });
  process.on('unhandledRejection', (error) => {
    console.error(error);
    abort('unhandled rejection');
  });
  process.once('SIGINT', () => abort('interrupted'));
  process.once('SIGTERM', () => abort('terminated'));
  const watchdog = watchdogMs(selected);
  setTimeout(() => abort(`still running after ${watchdog / 1000} s`), watchdog).unref();

  let failures = 0;
  try {
    // As `npm start` runs it: the embedded database in a process of its own, not on the load generator's event loop.
    infra = await startInfrastructure({ pgliteInOwnProcess: true });
    Object.assign(process.env, infra.env);
    log(`infrastructure in ${Date.now() - started} ms: ${infra.databaseLabel}; ${infra.temporalLabel}`);
    const machine = machineInfo(infra, loadAtStart);
    const load = machine.loadAverageAtStart as number[];
    log(`machine: ${machine.cpus} × ${machine.cpuModel}, node ${machine.node}, ${machine.temporalCli ?? 'temporal CLI'}, load ${load.join(' ')}`);
    if (load[0] > 0.5 * (machine.cpus as number)) log(`warning: the machine is already busy (load ${load[0]}): figures will be skewed`);
    context = new BenchContext(infra);

    for (const benchmark of selected) {
      log(`── ${benchmark.name}: ${benchmark.description}`);
      const benchStarted = Date.now();
      try {
        const report = await benchmark.run(context);
        const file = writeResult(benchmark, infra, machine, report, Date.now() - benchStarted);
        console.log(`\n${benchmark.name} (${report.database ?? infra.databaseLabel}; ratio = pylon / baseline)\n${formatTable(report.rows)}\n`);
        for (const grid of report.tables ?? []) console.log(`${formatGrid(grid)}\n`);
        log(`${benchmark.name} took ${((Date.now() - benchStarted) / 1000).toFixed(1)} s; figures in ${relative(REPO_ROOT, file)}`);
      } catch (error) {
        failures++;
        console.error(`[bench] ${benchmark.name} failed:`, error);
      }
    }
  } finally {
    await stopAll();
  }
  log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return failures ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
