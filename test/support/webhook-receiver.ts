import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  at: number;
}

/**
 * A webhook receiver on loopback: records every request and answers from a per-path queue of statuses (default 200),
 * with a path's extra headers if it was given some.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly statuses = new Map<string, number[]>();
  private readonly extraHeaders = new Map<string, Record<string, string>>();
  private server!: Server;
  baseUrl!: string;

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    receiver.server = createServer(async (request, response) => {
      let body = '';
      for await (const chunk of request) body += chunk;
      const path = request.url ?? '/';
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      receiver.received.push({ path, headers: request.headers, body, json, at: Date.now() });
      const status = receiver.statuses.get(path)?.shift() ?? 200;
      response
        .writeHead(status, { 'content-type': 'text/plain', ...receiver.extraHeaders.get(path) })
        .end(status < 300 ? 'ok' : `receiver says ${status}`);
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.baseUrl = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    return receiver;
  }

  /** The next requests to `path` get these statuses, in order. */
  respond(path: string, ...statuses: number[]): void {
    this.statuses.set(path, [...(this.statuses.get(path) ?? []), ...statuses]);
  }

  /** Every answer to `path` carries these headers too. */
  answerWithHeaders(path: string, headers: Record<string, string>): void {
    this.extraHeaders.set(path, headers);
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.path === path);
  }

  async waitFor(path: string, count: number, timeoutMs = 30_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.at(path).length < count) {
      if (Date.now() > deadline) throw new Error(`${path} received ${this.at(path).length} of ${count} webhooks`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.at(path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
