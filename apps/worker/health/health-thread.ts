/**
 * The worker's health endpoint, in a thread of its own so that it answers while the process's event
 * loop is blocked, and says so: `GET /healthz` is 200 `{"status":"ok"}` while the loop last ran within
 * the threshold, 503 `{"status":"stalled"}` past it, each with how long ago the loop last ran.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

export interface HealthThreadData {
  host: string;
  port: number;
  stallMs: number;
  /** One BigInt64: when the event loop last ran (Date.now()), written by the loop's heartbeat. */
  loopRanAt: SharedArrayBuffer;
}

const { host, port, stallMs, loopRanAt } = workerData as HealthThreadData;
const lastRun = new BigInt64Array(loopRanAt);

const server = createServer((request, response) => {
  const path = (request.url ?? '/').split('?')[0];
  if (path !== '/healthz' || (request.method !== 'GET' && request.method !== 'HEAD')) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    return;
  }
  const blockedMs = Math.max(0, Date.now() - Number(Atomics.load(lastRun, 0)));
  const stalled = blockedMs > stallMs;
  const body = JSON.stringify({ status: stalled ? 'stalled' : 'ok', event_loop_blocked_ms: blockedMs, stall_threshold_ms: stallMs });
  response.writeHead(stalled ? 503 : 200, { 'content-type': 'application/json' }).end(request.method === 'HEAD' ? undefined : body);
});
server.listen(port, host, () => parentPort?.postMessage({ listening: (server.address() as AddressInfo).port }));
server.on('error', (error) => parentPort?.postMessage({ error: error.message }));
