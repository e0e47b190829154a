import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeHttpServer } from './fake-http-server';

/** One reply of the fake Gemini API. */
export interface GeminiReply {
  /** The answer's text, one chunk per piece. */
  text?: string[];
  /** Function calls, sent together in the last chunk (Gemini gives each call whole); `id` as Gemini 3 gives it, or none. */
  functionCalls?: Array<{ id?: string; name: string; args: Record<string, unknown> }>;
  /** An HTTP error instead of a stream, with Gemini's status name and a RetryInfo delay ("7s"). */
  status?: number;
  statusName?: string;
  retryDelay?: string;
  /** The connection is destroyed after this many chunks: a stream cut mid-way. */
  cutAfter?: number;
  /** After the first chunk the stream stays open until the client goes. */
  holdOpen?: boolean;
  usage?: { promptTokenCount: number; candidatesTokenCount: number; thoughtsTokenCount?: number };
}

/**
 * A local server that speaks the Gemini API as its documentation and SDK define it: `POST
 * /v1/models/{model}:streamGenerateContent?alt=sse` (or `/v1beta/`) answered by server-sent `GenerateContentResponse`
 * chunks (candidates' parts, a finish reason on the last, `usageMetadata`); errors as
 * `{"error": {code, message, status, details}}`.
 */
export class FakeGemini extends FakeHttpServer<GeminiReply> {
  readonly requests: Array<{ model: string; body: any; headers: IncomingMessage['headers']; closedAt?: number }> = [];
  protected readonly defaultReply: GeminiReply = { text: ['fake ', 'answer'] };
  /** Embedding requests received (`:batchEmbedContents`), and how it embeds a text (deterministic, not normalised: the client normalises). */
  readonly embeddingRequests: Array<{ model: string; body: any; headers: IncomingMessage['headers'] }> = [];
  embed: (text: string, dimensions: number) => number[] = (text, dimensions) =>
    Array.from({ length: dimensions }, (_, i) => 2 * Math.cos(i + text.length));
  /** The keys it takes (`x-goog-api-key`); null: any. */
  acceptedKeys: Set<string> | null = null;
  /** Model listings received (`GET /v1beta/models`, what a key check calls). */
  readonly modelListings: Array<{ headers: IncomingMessage['headers'] }> = [];
  /** Token counts asked (`:countTokens`), by model and body; each answered a token per four characters of its contents. */
  readonly tokenCounts: Array<{ model: string; body: any }> = [];

  static async start(): Promise<FakeGemini> {
    return new FakeGemini().listen();
  }

  protected async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const key = request.headers['x-goog-api-key'] as string | undefined;
    if (this.acceptedKeys && !(key && this.acceptedKeys.has(key))) {
      // Gemini answers a key it does not take with 400 INVALID_ARGUMENT, not 401.
      const body = errorBody(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.');
      response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    if (request.method === 'GET' && /^\/v1(?:beta|alpha)?\/models(?:\?.*)?$/.test(request.url ?? '')) {
      this.modelListings.push({ headers: request.headers });
      const model = { name: 'models/gemini-2.5-flash', displayName: 'Gemini 2.5 Flash', supportedGenerationMethods: ['generateContent'] };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ models: [model] }));
      return;
    }
    const count = /^\/v1(?:beta|alpha)?\/models\/([^:]+):countTokens$/.exec(request.url ?? '');
    if (request.method === 'POST' && count) {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { contents: unknown[] };
      this.tokenCounts.push({ model: decodeURIComponent(count[1]!), body });
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ totalTokens: Math.ceil(JSON.stringify(body.contents).length / 4) }));
      return;
    }
    const embedding = /^\/v1(?:beta|alpha)?\/models\/([^:]+):batchEmbedContents$/.exec(request.url ?? '');
    if (request.method === 'POST' && embedding) {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        requests: Array<{ content: { parts: Array<{ text: string }> }; outputDimensionality?: number }>;
      };
      this.embeddingRequests.push({ model: decodeURIComponent(embedding[1]!), body, headers: request.headers });
      const embeddings = body.requests.map((asked) => ({
        values: this.embed(asked.content.parts.map((part) => part.text).join(''), asked.outputDimensionality ?? 3072),
      }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ embeddings }));
      return;
    }
    const route = /^\/v1(?:beta|alpha)?\/models\/([^:]+):streamGenerateContent\?alt=sse$/.exec(request.url ?? '');
    if (request.method !== 'POST' || !route) {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify(errorBody(404, 'NOT_FOUND', `not found: ${request.method} ${request.url}`)));
      return;
    }
    const record: { model: string; body: any; headers: IncomingMessage['headers']; closedAt?: number } = {
      model: decodeURIComponent(route[1]!),
      body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      headers: request.headers,
    };
    this.requests.push(record);
    response.on('close', () => (record.closedAt = Date.now()));
    const reply = this.nextReply();
    if (reply.status) {
      const body = errorBody(reply.status, reply.statusName ?? 'INTERNAL', `fake ${reply.status}`, reply.retryDelay);
      response.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const pieces = streamChunks(record.model, reply);
    for (let i = 0; i < pieces.length; i++) {
      if (reply.cutAfter !== undefined && i === reply.cutAfter) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return void response.destroy();
      }
      response.write(`data: ${JSON.stringify(pieces[i])}\r\n\r\n`);
      if (reply.holdOpen) return; // until the client goes
    }
    response.end();
  }
}

function errorBody(code: number, status: string, message: string, retryDelay?: string) {
  return {
    error: { code, message, status, ...(retryDelay ? { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay }] } : {}) },
  };
}

function streamChunks(model: string, reply: GeminiReply): any[] {
  const usage = reply.usage ?? { promptTokenCount: 17, candidatesTokenCount: 6 };
  const texts = reply.text ?? [];
  const chunks: any[] = texts.map((text) => ({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }], modelVersion: model }));
  const last = {
    candidates: [
      {
        content: { role: 'model', parts: (reply.functionCalls ?? []).map((call) => ({ functionCall: call })) },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: { ...usage, totalTokenCount: usage.promptTokenCount + usage.candidatesTokenCount + (usage.thoughtsTokenCount ?? 0) },
    modelVersion: model,
  };
  return [...chunks, last];
}
