import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeReply {
  status?: number;
  delayMs?: number;
  content?: string;
  errorMessage?: string;
  /** Embeddings only: the vectors to return, in input order, instead of those from `embed`. */
  vectors?: number[][];
  /** Embeddings only: return `data` in reverse order (the API may; `index` is what counts). */
  reversed?: boolean;
  /** Chat only: answer with these function tool calls instead of content. */
  toolCalls?: Array<{ id: string; name: string; arguments: string }>;
}

/**
 * An OpenAI-compatible Chat Completions server on loopback: the network edge the real provider
 * would cross. Replies are taken from a queue, then from the default.
 */
export class FakeOpenAi {
  readonly requests: Array<{ body: any; at: number }> = [];
  private readonly queue: FakeReply[] = [];
  defaultReply: FakeReply = { content: 'fake completion' };
  private server!: Server;
  baseUrl!: string;

  static async start(): Promise<FakeOpenAi> {
    const fake = new FakeOpenAi();
    fake.server = createServer((request, response) => void fake.handle(request, response));
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.baseUrl = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/v1`;
    return fake;
  }

  enqueue(...replies: FakeReply[]): void {
    this.queue.push(...replies);
  }

  /** Embedding requests received, and replies to give them (then vectors from `embed`). */
  readonly embeddingRequests: Array<{ body: any; at: number; authorization: string | undefined }> = [];
  private readonly embeddingQueue: FakeReply[] = [];
  embed: (text: string, dimensions: number) => number[] = (text, dimensions) => {
    const vector = Array.from({ length: dimensions }, (_, i) => Math.sin(i + text.length));
    const norm = Math.hypot(...vector);
    return vector.map((value) => value / norm);
  };

  enqueueEmbeddings(...replies: FakeReply[]): void {
    this.embeddingQueue.push(...replies);
  }

  private async handleEmbeddings(body: any, authorization: string | undefined, response: import('node:http').ServerResponse): Promise<void> {
    this.embeddingRequests.push({ body, at: Date.now(), authorization });
    const reply = this.embeddingQueue.shift() ?? {};
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (response.destroyed) return;
    const status = reply.status ?? 200;
    response.writeHead(status, { 'content-type': 'application/json' });
    if (status !== 200) {
      response.end(JSON.stringify({ error: { message: reply.errorMessage ?? `fake error ${status}`, type: 'fake', code: null } }));
      return;
    }
    const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
    const data = inputs.map((text, index) => ({
      object: 'embedding',
      index,
      embedding: reply.vectors?.[index] ?? this.embed(text, body.dimensions ?? 1536),
    }));
    if (reply.reversed) data.reverse();
    response.end(JSON.stringify({ object: 'list', model: body.model, data, usage: { prompt_tokens: inputs.length, total_tokens: inputs.length } }));
  }

  private async handle(request: IncomingMessage, response: import('node:http').ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    if (request.method === 'POST' && request.url?.endsWith('/embeddings')) {
      await this.handleEmbeddings(JSON.parse(raw), request.headers.authorization, response);
      return;
    }
    if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
      response.writeHead(404).end();
      return;
    }
    const body = JSON.parse(raw);
    this.requests.push({ body, at: Date.now() });
    const reply = this.queue.shift() ?? this.defaultReply;
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (response.destroyed) return;
    const status = reply.status ?? 200;
    response.writeHead(status, { 'content-type': 'application/json' });
    if (status !== 200) {
      response.end(JSON.stringify({ error: { message: reply.errorMessage ?? `fake error ${status}`, type: 'fake', code: null } }));
      return;
    }
    response.end(
      JSON.stringify({
        id: `chatcmpl-${this.requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          reply.toolCalls
            ? {
                index: 0,
                finish_reason: 'tool_calls',
                message: {
                  role: 'assistant',
                  content: null,
                  tool_calls: reply.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
                },
              }
            : { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: reply.content ?? 'fake completion' } },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    );
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
