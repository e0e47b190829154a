import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { hostPort } from '../metrics-server';
import type { HealthThreadData } from './health-thread';

/** How often the event loop says it ran: the endpoint's figure is at most this much late. */
const HEARTBEAT_MS = 250;

export interface WorkerHealth {
  url: string;
  stop(): Promise<void>;
}

/**
 * Serves the worker's `GET /healthz` from a thread of its own (see health-thread), fed by a timer on the
 * event loop that stamps the time it ran: a loop blocked by anything (a parse, a tight loop in a library)
 * stops stamping, and the endpoint answers 503 once the stamp is older than `stallMs`.
 */
export async function serveWorkerHealth(host: string, port: number, stallMs: number): Promise<WorkerHealth> {
  const loopRanAt = new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT);
  const stamp = new BigInt64Array(loopRanAt);
  const beat = () => Atomics.store(stamp, 0, BigInt(Date.now()));
  beat();
  const heartbeat = setInterval(beat, HEARTBEAT_MS);
  heartbeat.unref();
  const thread = new Worker(join(__dirname, 'health-thread.js'), { workerData: { host, port, stallMs, loopRanAt } satisfies HealthThreadData });
  thread.unref();
  try {
    const listening = await new Promise<number>((resolve, reject) => {
      thread.once('message', (message: { listening?: number; error?: string }) =>
        message.listening === undefined
          ? reject(new Error(`the worker health endpoint could not listen: ${message.error}`))
          : resolve(message.listening),
      );
      thread.once('error', reject);
    });
    return {
      url: `http://${hostPort(host, listening)}/healthz`,
      stop: async () => {
        clearInterval(heartbeat);
        await thread.terminate();
      },
    };
  } catch (error) {
    clearInterval(heartbeat);
    await thread.terminate();
    throw error;
  }
}
