import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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
  /** Chat streams only: send the first piece of content, then hold the response open until the client goes. */
  holdOpen?: boolean;
  /** Chat streams only: wait this long between pieces of content. */
  chunkDelayMs?: number;
  /** Chat: the token counts to report (a stream reports them in its last chunk when the request asks with stream_options.include_usage). */
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number; reasoning_tokens?: number };
}

/**
 * An OpenAI-compatible Chat Completions server on loopback: the network edge the real provider
 * would cross. A model given its own reply always gets it; other requests take replies from a queue, then the default.
 */
export class FakeOpenAi {
  /** Chat requests received, with the key they carried; `closedAt` is when the client's connection closed (streams held open). */
  readonly requests: Array<{ body: any; at: number; authorization: string | undefined; closedAt?: number }> = [];
  private readonly queue: FakeReply[] = [];
  private readonly modelReplies = new Map<string, FakeReply>();
  defaultReply: FakeReply = { content: 'fake completion' };
  /** A reply chosen by what was asked (e.g. a summary for a summarising request); undefined: the usual order. */
  replyTo?: (body: any) => FakeReply | undefined;
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

  /**
   * Answers every chat request for `model` with `reply`, as a provider answers a model it does not have: a
   * retried attempt (one whose heartbeat timed out on a loaded machine) gets the same answer, not the next one queued.
   */
  answerModel(model: string, reply: FakeReply): void {
    this.modelReplies.set(model, reply);
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

  /** Drops the embedding replies not used yet, so that they do not reach the next test. */
  discardQueuedEmbeddings(): void {
    this.embeddingQueue.length = 0;
  }

  private async handleEmbeddings(body: any, authorization: string | undefined, response: ServerResponse): Promise<void> {
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

  /** The keys it takes (`Authorization: Bearer <key>`); null: any. Another key is answered 401, as OpenAI answers it. */
  acceptedKeys: Set<string> | null = null;
  /** Model listings received (`GET /models`, what a key check calls), with the key they carried. */
  readonly modelListings: Array<{ authorization: string | undefined }> = [];
  /** Token counts asked (`POST /responses/input_tokens`), by their bodies; each answered a token per four characters of its input. */
  readonly tokenCounts: Array<{ body: any }> = [];

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    const key = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (this.acceptedKeys && !(key && this.acceptedKeys.has(key))) {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } }));
      return;
    }
    if (request.method === 'GET' && request.url?.split('?')[0]?.endsWith('/models')) {
      this.modelListings.push({ authorization: request.headers.authorization });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model', created: 1721172741, owned_by: 'system' }] }));
      return;
    }
    if (request.method === 'POST' && request.url?.endsWith('/responses/input_tokens')) {
      const body = JSON.parse(raw);
      this.tokenCounts.push({ body });
      const counted = Math.ceil(JSON.stringify([body.instructions ?? '', body.input, body.tools ?? []]).length / 4);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ object: 'response.input_tokens', input_tokens: counted }));
      return;
    }
    if (request.method === 'POST' && request.url?.endsWith('/embeddings')) {
      await this.handleEmbeddings(JSON.parse(raw), request.headers.authorization, response);
      return;
    }
    const responsesApi = request.method === 'POST' && !!request.url?.endsWith('/responses');
    if (!responsesApi && (request.method !== 'POST' || !request.url?.endsWith('/chat/completions'))) {
      response.writeHead(404).end();
      return;
    }
    const body = JSON.parse(raw);
    const received: { body: any; at: number; authorization: string | undefined; closedAt?: number } = {
      body,
      at: Date.now(),
      authorization: request.headers.authorization,
    };
    this.requests.push(received);
    response.once('close', () => (received.closedAt = Date.now()));
    const reply = this.replyTo?.(body) ?? this.modelReplies.get(body.model) ?? this.queue.shift() ?? this.defaultReply;
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (response.destroyed) return;
    const status = reply.status ?? 200;
    if (status !== 200) {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: reply.errorMessage ?? `fake error ${status}`, type: 'fake', code: null } }));
      return;
    }
    if (responsesApi) {
      await this.streamResponse(reply, body, response);
      return;
    }
    if (body.stream) {
      await this.stream(reply, body, response);
      return;
    }
    response.writeHead(status, { 'content-type': 'application/json' });
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
                  tool_calls: reply.toolCalls.map((call) => ({
                    id: call.id,
                    type: 'function',
                    function: { name: call.name, arguments: call.arguments },
                  })),
                },
              }
            : { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: reply.content ?? 'fake completion' } },
        ],
        usage: usageOf(reply),
      }),
    );
  }

  /** Chat Completions streaming: the content a few words per chunk (or the tool calls), then [DONE]. */
  private async stream(reply: FakeReply, body: any, response: ServerResponse): Promise<void> {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const base = {
      id: `chatcmpl-${this.requests.length}`,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
    };
    const send = (delta: unknown, finishReason: string | null = null) =>
      response.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`);
    if (reply.toolCalls) {
      reply.toolCalls.forEach((call, index) =>
        send({ role: 'assistant', tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }] }),
      );
      send({}, 'tool_calls');
    } else {
      const pieces = (reply.content ?? 'fake completion').match(/\S+\s*|\s+/g) ?? [''];
      if (reply.holdOpen) {
        send({ role: 'assistant', content: pieces[0] });
        return; // the client's cancel is what ends this response
      }
      for (const piece of pieces) {
        if (reply.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, reply.chunkDelayMs));
        if (response.destroyed) return;
        send({ content: piece });
      }
      send({}, 'stop');
    }
    if (body.stream_options?.include_usage) response.write(`data: ${JSON.stringify({ ...base, choices: [], usage: usageOf(reply) })}\n\n`);
    response.end('data: [DONE]\n\n');
  }

  /**
   * The Responses API's stream (`POST /responses` with `stream: true`), its events as OpenAI documents them:
   * `response.created`, then per output item `response.output_item.added`, its text deltas
   * (`response.output_text.delta`) or its arguments (`response.function_call_arguments.delta` / `.done`),
   * `response.output_item.done`, and last `response.completed` with the usage.
   */
  private async streamResponse(reply: FakeReply, body: any, response: ServerResponse): Promise<void> {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let sequence = 0;
    const send = (event: Record<string, unknown>) =>
      response.write(`event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence++ })}\n\n`);
    const id = `resp_${this.requests.length}`;
    const shell = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model: body.model, output: [] as unknown[] };
    send({ type: 'response.created', response: { ...shell, status: 'in_progress' } });
    const output: unknown[] = [];
    if (reply.toolCalls) {
      reply.toolCalls.forEach((call, index) => {
        const item = { type: 'function_call', id: `fc_${index}`, call_id: call.id, name: call.name, arguments: '', status: 'in_progress' };
        send({ type: 'response.output_item.added', output_index: index, item });
        send({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index: index, delta: call.arguments });
        send({ type: 'response.function_call_arguments.done', item_id: item.id, output_index: index, arguments: call.arguments });
        const done = { ...item, arguments: call.arguments, status: 'completed' };
        output.push(done);
        send({ type: 'response.output_item.done', output_index: index, item: done });
      });
    } else {
      const text = reply.content ?? 'fake completion';
      const item = { type: 'message', id: 'msg_0', role: 'assistant', status: 'in_progress', content: [] as unknown[] };
      send({ type: 'response.output_item.added', output_index: 0, item });
      send({
        type: 'response.content_part.added',
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
      const pieces = text.match(/\S+\s*|\s+/g) ?? [''];
      for (const [index, piece] of pieces.entries()) {
        if (reply.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, reply.chunkDelayMs));
        if (response.destroyed) return;
        send({ type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: piece });
        if (reply.holdOpen && index === 0) return; // the client's cancel is what ends this response
      }
      send({ type: 'response.output_text.done', item_id: item.id, output_index: 0, content_index: 0, text });
      const done = { ...item, status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
      output.push(done);
      send({ type: 'response.output_item.done', output_index: 0, item: done });
    }
    const { prompt_tokens, completion_tokens } = usageOf(reply);
    const usage = {
      input_tokens: prompt_tokens,
      input_tokens_details: { cached_tokens: reply.usage?.cached_tokens ?? 0 },
      output_tokens: completion_tokens,
      output_tokens_details: { reasoning_tokens: reply.usage?.reasoning_tokens ?? 0 },
      total_tokens: prompt_tokens + completion_tokens,
    };
    send({ type: 'response.completed', response: { ...shell, status: 'completed', output, usage } });
    response.end();
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function usageOf(reply: FakeReply): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  const { prompt_tokens, completion_tokens } = reply.usage ?? { prompt_tokens: 1, completion_tokens: 1 };
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}
