import type { ServerResponse } from 'node:http';

export interface ServerSentEvent {
  id: string;
  event: string;
  data: unknown;
}

/**
 * A `text/event-stream` response on a raw Node response: frames with `id`, `event` and one JSON `data`
 * line, comment lines as heartbeats, and writes that wait while the client is slow to read.
 *
 * What is sent in one turn of the event loop leaves in one write: the head with the first frames, the
 * frames of one read together, and the last frames with the end of the stream. A write of its own per
 * frame cost the API a system call each (16% of its busy time in `agent-run-e2e`).
 */
export class ServerSentEventStream {
  private heartbeat: NodeJS.Timeout | undefined;
  private pending = '';
  private writeScheduled = false;
  /** `headersSent` turns true at `writeHead`, which only stores the head: it leaves with the first write. */
  private headLeft = false;
  private drained: Promise<void> | undefined;

  constructor(private readonly response: ServerResponse) {}

  open(headers: Record<string, string>, heartbeatSeconds: number): void {
    this.response.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no', // nginx: pass events through as they come
    });
    this.scheduleWrite(); // the head leaves with the first frames, or alone when there are none yet
    this.heartbeat = setInterval(() => this.enqueue(': keep-alive\n\n'), heartbeatSeconds * 1000);
    this.heartbeat.unref();
  }

  async send(event: ServerSentEvent): Promise<void> {
    if (this.drained) await this.drained;
    this.enqueue(`id: ${event.id}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`);
  }

  /** A frame of one `data` line only, as OpenAI's Chat Completions stream sends (its chunks, then `[DONE]`). */
  async sendData(data: string): Promise<void> {
    if (this.drained) await this.drained;
    this.enqueue(`data: ${data}\n\n`);
  }

  close(): void {
    clearInterval(this.heartbeat);
    if (this.response.writableEnded) return;
    const rest = this.pending;
    this.pending = '';
    if (rest) this.response.end(rest);
    else this.response.end();
  }

  private enqueue(text: string): void {
    this.pending += text;
    this.scheduleWrite();
  }

  private scheduleWrite(): void {
    if (this.writeScheduled) return;
    this.writeScheduled = true;
    setImmediate(() => this.writePending());
  }

  private writePending(): void {
    this.writeScheduled = false;
    if (this.response.writableEnded || this.response.destroyed) return;
    const text = this.pending;
    this.pending = '';
    if (text) {
      if (!this.response.write(text)) this.drained = this.untilDrained();
    } else if (!this.headLeft) {
      this.response.flushHeaders();
    }
    this.headLeft = true;
  }

  private untilDrained(): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        this.response.off('drain', done);
        this.response.off('close', done);
        this.drained = undefined;
        resolve();
      };
      this.response.once('drain', done);
      this.response.once('close', done);
    });
  }
}
