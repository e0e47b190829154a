import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** The API key the fake accepts when it plays the API (the tests configure the provider with it). */
export const FAKE_LUMA_API_KEY = 'luma-test-key';

/** A JSON fixture from `fixtures/luma/` (copied beside the compiled code by `npm run build:test`). */
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
  /** Without the `/dream-machine/v1` prefix. */
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

/**
 * Luma's Dream Machine API on loopback (the network edge the real provider would cross), for the
 * provider's unit tests (libs/video-providers/luma-video-provider.test.ts) and the end-to-end video
 * tests (test/e2e/video-luma.e2e.test.ts). It records every request.
 *
 * - Scripted: a reply queued with `enqueue` answers the next request, whatever it is, in order.
 * - Otherwise it plays the API: the key must be {@link FAKE_LUMA_API_KEY}; creating a generation whose
 *   prompt has "REJECT" is refused with a 400; a generation whose prompt has "FAIL" ends `failed`,
 *   others `completed`, on their second poll.
 */
export class FakeLuma {
  readonly requests: RecordedRequest[] = [];
  /** The bodies of the generations asked for while playing the API (refused ones included), in order. */
  readonly created: any[] = [];
  private readonly replies: FakeReply[] = [];
  private readonly polls = new Map<string, number>();
  private readonly prompts = new Map<string, string>();

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<FakeLuma> {
    let fake!: FakeLuma;
    const server = createServer((req, res) => void fake.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeLuma(server, `http://127.0.0.1:${port}/dream-machine/v1`);
    return fake;
  }

  enqueue(...replies: FakeReply[]): void {
    this.replies.push(...replies);
  }

  /** Forgets the recorded requests, the queued replies and the generations. */
  reset(): void {
    this.requests.length = 0;
    this.replies.length = 0;
    this.created.length = 0;
    this.polls.clear();
    this.prompts.clear();
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const request: RecordedRequest = {
      method: req.method ?? '',
      path: (req.url ?? '').replace(/^\/dream-machine\/v1/, ''),
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      body: raw ? (JSON.parse(raw) as unknown) : undefined,
    };
    this.requests.push(request);
    const reply = this.replies.shift() ?? this.play(request);
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed) return;
    const body = reply.text ?? JSON.stringify(reply.fixture ? lumaFixture(reply.fixture) : (reply.json ?? {}));
    res.writeHead(reply.status, { 'content-type': reply.text === undefined ? 'application/json' : 'text/html' });
    res.end(body);
  }

  /** The answer of the API itself, for a request no queued reply answers. */
  private play(request: RecordedRequest): FakeReply {
    if (request.authorization !== `Bearer ${FAKE_LUMA_API_KEY}`) return { status: 401, json: { detail: 'Invalid API key' } };
    if (request.method === 'POST' && request.path === '/generations') {
      const body = request.body as { prompt?: unknown };
      this.created.push(body);
      if (String(body.prompt).includes('REJECT')) return { status: 400, json: { detail: 'prompt rejected by moderation' } };
      const id = randomUUID();
      this.prompts.set(id, String(body.prompt));
      return { status: 201, json: { id, state: 'queued', failure_reason: null, created_at: new Date().toISOString(), assets: null, request: body } };
    }
    const match = /^\/generations\/([0-9a-f-]{36})$/.exec(request.path);
    if (request.method === 'GET' && match) {
      const id = match[1]!;
      const prompt = this.prompts.get(id);
      if (prompt === undefined) return { status: 404, json: { detail: 'Not found' } };
      const polls = (this.polls.get(id) ?? 0) + 1;
      this.polls.set(id, polls);
      const base = { id, created_at: new Date().toISOString(), request: { prompt } };
      if (polls < 2) return { status: 200, json: { ...base, state: 'dreaming', failure_reason: null, assets: null } };
      if (prompt.includes('FAIL')) {
        return { status: 200, json: { ...base, state: 'failed', failure_reason: 'the model could not render this prompt', assets: null } };
      }
      return {
        status: 200,
        json: {
          ...base,
          state: 'completed',
          failure_reason: null,
          assets: { video: `https://cdn.example.test/${id}.mp4`, image: `https://cdn.example.test/${id}.jpg` },
        },
      };
    }
    return { status: 404, json: { detail: 'Not found' } };
  }
}
