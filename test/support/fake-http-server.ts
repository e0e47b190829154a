import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A provider's fake on loopback: it answers from a queue of replies (then its default), and records nothing itself. */
export abstract class FakeHttpServer<Reply> {
  private readonly queue: Reply[] = [];
  private server!: Server;
  /** The server's root, `http://127.0.0.1:<port>`. */
  baseUrl!: string;

  protected abstract readonly defaultReply: Reply;

  /** Listens on a free loopback port. */
  async listen(): Promise<this> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  enqueue(...replies: Reply[]): void {
    this.queue.push(...replies);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  protected nextReply(): Reply {
    return this.queue.shift() ?? this.defaultReply;
  }

  protected abstract handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
}
