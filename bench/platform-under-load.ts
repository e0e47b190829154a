/**
 * The platform's floor, for the noisy-neighbour and batch-drain benchmarks: a bare Temporal workflow
 * (baselineWorkflow: two workflow tasks and one activity, its Worker a process of its own, no API and no
 * database), run one at a time at a pace, or a batch of them started at once and drained.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Client } from '@temporalio/client';
import type { AppProcess } from '../test/support/stack';
import { startBenchProcess } from './baseline-server';
import { openLoop, runConcurrently, sleep } from './support';

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

/** A bare Worker in a process of its own and a way to run one bare workflow on it (its latency, ms). */
export interface BareWorkflows {
  run(): Promise<number>;
  /** Starts `count` workflows as fast as `connections` clients can, then waits for all: first start → last result, ms. */
  drain(count: number, connections: number): Promise<number>;
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
  const drain = async (count: number, connections: number) => {
    const t = performance.now();
    const { results: handles } = await runConcurrently(count, connections, () =>
      client.workflow.start('baselineWorkflow', { taskQueue, workflowId: `${taskQueue}-${started++}`, args: ['batch'] }),
    );
    await runConcurrently(handles.length, connections, (i) => handles[i]!.result());
    return performance.now() - t;
  };
  await openLoop(4, 2, run); // warm-up
  return { run, drain, stop: () => worker.stop() };
}
