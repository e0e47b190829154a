/**
 * The webhooks benchmark's receiver, run as a child process (with the embedded database, PGlite works
 * on the benchmark process's event loop and would delay arrivals): a node:http server on 127.0.0.1 that
 * answers 200 at once and records every request's arrival (when its body has been read, sub-millisecond,
 * on the machine's wall clock). Driven over IPC by webhooks.bench.ts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  path: string;
  webhookId: string;
  webhookTimestamp: string;
  webhookSignature: string;
  body: string;
  /** Epoch milliseconds (fractional) when the body had been read. */
  at: number;
}

/** Parent → child: `{ id, cmd }`; the child answers `{ id, ... }`. Unsolicited: `{ type: 'ready' | 'arrival' }`. */
export type ReceiverCommand = { id: number; cmd: 'reset'; notify: boolean } | { id: number; cmd: 'count' } | { id: number; cmd: 'take' };

/**
 * The wall clock with sub-millisecond resolution: performance.timeOrigin (taken from the system clock with
 * microsecond resolution when the process started) plus the monotonic performance.now(). Agrees across the
 * benchmark's processes to a fraction of a millisecond; anchoring performance.now() at a tick of Date.now()
 * instead was measured off by up to 1.2 ms between two processes on a busy machine.
 */
export function preciseWallClock(): () => number {
  return () => performance.timeOrigin + performance.now();
}

/** Run as a child process (fork): serves until the parent disconnects. */
function serve(): void {
  const now = preciseWallClock();

  let arrivals: Arrival[] = [];
  /** When set, every arrival is announced to the parent with the run it is about (`data.run_id`). */
  let notify = false;

  const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(',') : (value ?? ''));

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = now();
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      const body = Buffer.concat(chunks).toString('utf8');
      arrivals.push({
        path: request.url ?? '/',
        webhookId: header(request.headers['webhook-id']),
        webhookTimestamp: header(request.headers['webhook-timestamp']),
        webhookSignature: header(request.headers['webhook-signature']),
        body,
        at,
      });
      if (notify) {
        let runId: unknown;
        try {
          runId = (JSON.parse(body) as { data?: { run_id?: unknown } }).data?.run_id;
        } catch {
          runId = undefined;
        }
        process.send?.({ type: 'arrival', runId: typeof runId === 'string' ? runId : null });
      }
    });
  });
  server.keepAliveTimeout = 30_000;

  process.on('message', (message: ReceiverCommand) => {
    switch (message.cmd) {
      case 'reset':
        arrivals = [];
        notify = message.notify;
        process.send?.({ id: message.id });
        break;
      case 'count':
        process.send?.({ id: message.id, count: arrivals.length });
        break;
      case 'take':
        process.send?.({ id: message.id, arrivals });
        arrivals = [];
        break;
    }
  });
  process.on('disconnect', () => process.exit(0));

  server.listen(0, '127.0.0.1', () => {
    process.send?.({ type: 'ready', port: (server.address() as AddressInfo).port });
  });
}

if (require.main === module) serve();
