/**
 * The platform's own sensitivity to load, for the noisy-neighbour benchmark: a bare Temporal workflow
 * (baselineWorkflow: two workflow tasks and one activity, its Worker a process of its own, no API and no
 * database) started at the quiet organisation's pace, alone and while other processes burn as much CPU
 * as the flood took. What a quiet tenant loses from the cores being shared, before any lock or queue.
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

export async function bareWorkflowUnderLoad(options: {
  client: Client;
  temporalAddress: string;
  rate: number;
  seconds: number;
  rounds: number;
  loadPercentOfOneCore: number;
}): Promise<PlatformUnderLoad> {
  const { client, rate, seconds, rounds } = options;
  const taskQueue = `bench-bare-${randomBytes(4).toString('hex')}`;
  const worker = startBenchProcess('baseline-worker-process', { TEMPORAL_ADDRESS: options.temporalAddress }, [taskQueue]);
  const share = Math.min(MAX_SHARE_PER_BURNER, Math.max(0.01, options.loadPercentOfOneCore / 100 / BURNERS));
  try {
    await untilReady(worker);
    let started = 0;
    const bareRun = async (): Promise<number> => {
      const t = performance.now();
      await client.workflow.execute('baselineWorkflow', { taskQueue, workflowId: `${taskQueue}-${started++}`, args: ['quiet'] });
      return performance.now() - t;
    };
    await openLoop(rate, 2, bareRun);
    const alone: number[] = [];
    const loaded: number[] = [];
    for (let round = 0; round < rounds; round++) {
      alone.push(...(await openLoop(rate, seconds, bareRun)));
      const burners = Array.from({ length: BURNERS }, () => startBenchProcess('cpu-burner', {}, [String(share)]));
      try {
        await sleep(1_000);
        loaded.push(...(await openLoop(rate, seconds, bareRun)));
      } finally {
        await Promise.all(burners.map((burner) => burner.stop()));
      }
    }
    return { alone, loaded, loadPercentOfOneCore: Math.round(share * BURNERS * 100) };
  } finally {
    await worker.stop();
  }
}
