/**
 * The platform's own sensitivity to load, for the noisy-neighbour benchmark: a bare Temporal workflow
 * (baselineWorkflow: two workflow tasks and one activity, its Worker a process of its own, no API and no
 * database) started at the quiet organisation's pace, alone and while other processes burn as much CPU
 * as the flood took. What a quiet tenant loses from the cores being shared, before any lock or queue.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { PYLON_NODE_FLAGS } from '@pylon/config';
import { openLoop, sleep } from './support';

/** Burners share the load: like the flood's, it comes from more than one process. */
const BURNERS = 2;
const MAX_SHARE_PER_BURNER = 0.95;

function startProcess(script: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [...PYLON_NODE_FLAGS, join(__dirname, script), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function untilReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (data: Buffer) => String(data).includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`the bare worker exited (${code}) before it was ready`)));
  });
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
  const worker = startProcess('baseline-worker-process.js', [taskQueue], { TEMPORAL_ADDRESS: options.temporalAddress });
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
      const burners = Array.from({ length: BURNERS }, () => startProcess('cpu-burner.js', [String(share)]));
      try {
        await sleep(1_000);
        loaded.push(...(await openLoop(rate, seconds, bareRun)));
      } finally {
        await Promise.all(burners.map(stopProcess));
      }
    }
    return { alone, loaded, loadPercentOfOneCore: Math.round(share * BURNERS * 100) };
  } finally {
    await stopProcess(worker);
  }
}
