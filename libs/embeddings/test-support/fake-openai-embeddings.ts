import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeEmbeddingsReply {
  status?: number;
  delayMs?: number;
  errorMessage?: string;
  /** The vectors to return, in input order; by default `dimensions` entries derived from each input. */
  vectors?: number[][];
  /** Reverse the order of `data` (the API may return items in any order; `index` is what counts). */
  reversed?: boolean;
}

/**
 * An OpenAI-compatible embeddings endpoint on loopback, answering with the shape of
 * `POST /v1/embeddings`. Replies are taken from a queue, then from the default.
 */
export class FakeOpenAiEmbeddings {
  readonly requests: Array<{ body: any; authorization: string | undefined }> = [];
  private readonly queue: FakeEmbeddingsReply[] = [];
  defaultReply: FakeEmbeddingsReply = {};
  private server!: Server;
  baseUrl!: string;

  static async start(): Promise<FakeOpenAiEmbeddings> {
    const fake = new FakeOpenAiEmbeddings();
    fake.server = createServer((request, response) => void fake.handle(request, response));
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.baseUrl = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/v1`;
    return fake;
  }

  enqueue(...replies: FakeEmbeddingsReply[]): void {
    this.queue.push(...replies);
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    if (request.method !== 'POST' || !request.url?.endsWith('/embeddings')) {
      response.writeHead(404).end();
      return;
    }
    const body = JSON.parse(raw);
    this.requests.push({ body, authorization: request.headers.authorization });
    const reply = this.queue.shift() ?? this.defaultReply;
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (response.destroyed) return;
    const status = reply.status ?? 200;
    response.writeHead(status, { 'content-type': 'application/json' });
    if (status !== 200) {
      const error = { message: reply.errorMessage ?? `fake error ${status}`, type: 'invalid_request_error', param: null, code: null };
      response.end(JSON.stringify({ error }));
      return;
    }
    const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
    const data = inputs.map((input, index) => ({
      object: 'embedding',
      index,
      embedding: reply.vectors?.[index] ?? fakeVector(input, body.dimensions ?? 8),
    }));
    if (reply.reversed) data.reverse();
    response.end(
      JSON.stringify({
        object: 'list',
        data,
        model: body.model,
        usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
      }),
    );
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A vector that identifies its input: entry 0 is the input's length, the rest 1 (not normalised). */
export function fakeVector(input: string, dimensions: number): number[] {
  return Array.from({ length: dimensions }, (_, i) => (i === 0 ? input.length + 1 : 1));
}
