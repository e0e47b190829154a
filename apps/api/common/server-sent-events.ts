import type { ServerResponse } from 'node:http';

export interface ServerSentEvent {
  id: string;
  event: string;
  data: unknown;
}

/**
 * A `text/event-stream` response on a raw Node response: frames with `id`, `event` and one JSON `data`
 * line, comment lines as heartbeats, and writes that wait while the client is slow to read.
 */
export class ServerSentEventStream {
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly response: ServerResponse) {}

  open(headers: Record<string, string>, heartbeatSeconds: number): void {
    this.response.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no', // nginx: pass events through as they come
    });
    this.response.flushHeaders();
    this.heartbeat = setInterval(() => this.response.write(': keep-alive\n\n'), heartbeatSeconds * 1000);
    this.heartbeat.unref();
  }

  async send(event: ServerSentEvent): Promise<void> {
    const frame = `id: ${event.id}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
    if (!this.response.write(frame) && !this.response.destroyed) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.response.off('drain', done);
          this.response.off('close', done);
          resolve();
        };
        this.response.once('drain', done);
        this.response.once('close', done);
      });
    }
  }

  close(): void {
    clearInterval(this.heartbeat);
    if (!this.response.writableEnded) this.response.end();
  }
}
