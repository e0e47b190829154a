import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** Test support: a JSON fixture from `fixtures/luma/` (copied beside the compiled code by the build). */
export function lumaFixture(name: string): unknown {
  return JSON.parse(readFileSync(join(__dirname, 'fixtures', 'luma', `${name}.json`), 'utf8'));
}

export interface FakeReply {
  status: number;
  /** A fixture name, or a body to send as JSON, or raw text. */
  fixture?: string;
  json?: unknown;
  text?: string;
  delayMs?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

/** Test support: a stand-in Dream Machine API on 127.0.0.1 that answers queued replies in order and records requests. */
export class FakeLumaServer {
  readonly requests: RecordedRequest[] = [];
  private readonly replies: FakeReply[] = [];

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<FakeLumaServer> {
    let fake!: FakeLumaServer;
    const server = createServer((req, res) => void fake.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeLumaServer(server, `http://127.0.0.1:${port}/dream-machine/v1`);
    return fake;
  }

  enqueue(...replies: FakeReply[]): void {
    this.replies.push(...replies);
  }

  reset(): void {
    this.requests.length = 0;
    this.replies.length = 0;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    this.requests.push({
      method: req.method ?? '',
      path: (req.url ?? '').replace(/^\/dream-machine\/v1/, ''),
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      body: raw ? (JSON.parse(raw) as unknown) : undefined,
    });
    const reply = this.replies.shift() ?? { status: 500, json: { detail: 'no reply queued in FakeLumaServer' } };
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed) return;
    const body = reply.text ?? JSON.stringify(reply.fixture ? lumaFixture(reply.fixture) : (reply.json ?? {}));
    res.writeHead(reply.status, { 'content-type': reply.text === undefined ? 'application/json' : 'text/html' });
    res.end(body);
  }
}
