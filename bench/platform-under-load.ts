/**
 * The platform's own sensitivity to load, for the noisy-neighbour benchmark: a bare Temporal workflow
 * (baselineWorkflow: two workflow tasks and one activity, its Worker a process of its own, no API and no
 * database) started at the quiet organisation's pace. The benchmark runs it under Pylon's flood itself
 * (what sharing the Temporal server and the cores costs), and here alone and while other processes burn
 * as much CPU as the flood took (what sharing the cores alone costs, before any lock or queue).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Client } from '@temporalio/client';
import type { AppProcess } from '../test/support/stack';
import { startBenchProcess } from './baseline-server';
import { openLoop, sleep } from './support';

/** Burners share the load: like the flood's, it comes from more than one process. */
const BURNERS = 2;
const MAX_SHARE_PER_BURNER = 0.95;

async function untilReady(worker: AppProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  // The log file appears with the process's first output.
  const log = () => (existsSync(worker.logFile) ? worker.log() : '');
  while (!log().includes('ready')) {
    if (!worker.running) throw new Error(`the bare worker exited before it was ready:\n${worker.log()}`);
    if (Date.now() > deadline) throw new Error(`the bare worker was not ready within 30 s:\n${worker.log()}`);
    await sleep(50);
  }
}

export interface PlatformUnderLoad {
  /** Latency of each bare workflow (start + result), ms. */
  alone: number[];
  loaded: number[];
  /** The CPU burned meanwhile, % of one core, across BURNERS processes. */
  loadPercentOfOneCore: number;
}

/** A bare Worker in a process of its own and a way to run one bare workflow on it (its latency, ms). */
export interface BareWorkflows {
  run(): Promise<number>;
  stop(): Promise<void>;
}

export async function startBareWorkflows(client: Client, temporalAddress: string): Promise<BareWorkflows> {
  const taskQueue = `bench-bare-${randomBytes(4).toString('hex')}`;
  const worker = startBenchProcess('baseline-worker-process', { TEMPORAL_ADDRESS: temporalAddress }, [taskQueue]);
  try {
    await untilReady(worker);
  } catch (error) {
    await worker.stop();
    throw error;
  }
  let started = 0;
  const run = async () => {
    const t = performance.now();
    await client.workflow.execute('baselineWorkflow', { taskQueue, workflowId: `${taskQueue}-${started++}`, args: ['quiet'] });
    return performance.now() - t;
  };
  await openLoop(4, 2, run); // warm-up
  return { run, stop: () => worker.stop() };
}

export async function bareWorkflowUnderLoad(options: {
  bare: BareWorkflows;
  rate: number;
  seconds: number;
  rounds: number;
  loadPercentOfOneCore: number;
}): Promise<PlatformUnderLoad> {
  const { bare, rate, seconds, rounds } = options;
  const share = Math.min(MAX_SHARE_PER_BURNER, Math.max(0.01, options.loadPercentOfOneCore / 100 / BURNERS));
  const alone: number[] = [];
  const loaded: number[] = [];
  for (let round = 0; round < rounds; round++) {
    alone.push(...(await openLoop(rate, seconds, () => bare.run())));
    const burners = Array.from({ length: BURNERS }, () => startBenchProcess('cpu-burner', {}, [String(share)]));
    try {
      await sleep(1_000);
      loaded.push(...(await openLoop(rate, seconds, () => bare.run())));
    } finally {
      await Promise.all(burners.map((burner) => burner.stop()));
    }
  }
  return { alone, loaded, loadPercentOfOneCore: Math.round(share * BURNERS * 100) };
}
