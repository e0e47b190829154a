import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeHttpServer } from './fake-http-server';

/** One reply of the fake Messages API. */
export interface AnthropicReply {
  /** The answer's text, sent as one `text_delta` per piece. */
  text?: string[];
  /** Tool calls, each a `tool_use` block whose input arrives as `input_json_delta` pieces. */
  toolUses?: Array<{ id: string; name: string; inputPieces: string[] }>;
  /** An HTTP error instead of a stream: the status, Anthropic's error type and message, and a Retry-After. */
  status?: number;
  errorType?: string;
  retryAfter?: string;
  /** An `error` event inside the 200 stream after this many events (Anthropic's mid-stream overload). */
  errorEventAfter?: number;
  /** The connection is destroyed after this many events: a stream cut mid-way. */
  cutAfter?: number;
  /** After the first text piece the stream stays open until the client goes. */
  holdOpen?: boolean;
  usage?: { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number; thinking_tokens?: number };
}

/**
 * A local server that speaks Anthropic's Messages API as its documentation and SDK define it: `POST
 * /v1/messages` with `stream: true` answered by the `message_start`, `content_block_start`, `ping`,
 * `content_block_delta` (`text_delta`, `input_json_delta`), `content_block_stop`, `message_delta` (stop
 * reason and usage) and `message_stop` events; errors as `{"type": "error", "error": {type, message}}`.
 */
export class FakeAnthropic extends FakeHttpServer<AnthropicReply> {
  readonly requests: Array<{ body: any; headers: IncomingMessage['headers']; closedAt?: number }> = [];
  protected readonly defaultReply: AnthropicReply = { text: ['fake ', 'answer'] };
  /** The keys it takes (`x-api-key`, or `Authorization: Bearer`); null: any. Another key is answered 401 `authentication_error`. */
  acceptedKeys: Set<string> | null = null;
  /** Model listings received (`GET /v1/models`, what a key check calls). */
  readonly modelListings: Array<{ headers: IncomingMessage['headers'] }> = [];
  /** Token counts asked (`POST /v1/messages/count_tokens`), by their bodies. */
  readonly tokenCounts: Array<{ body: any }> = [];
  /** How `count_tokens` counts a body; by default a token per four characters of its system prompt, messages and tools. */
  countTokens: (body: any) => number = (body) => Math.ceil(JSON.stringify([body.system ?? '', body.messages, body.tools ?? []]).length / 4);

  static async start(): Promise<FakeAnthropic> {
    return new FakeAnthropic().listen();
  }

  protected async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const key = keyOf(request.headers);
    if (this.acceptedKeys && !(key && this.acceptedKeys.has(key))) {
      response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify(errorBody('authentication_error', 'invalid x-api-key')));
      return;
    }
    if (request.method === 'GET' && request.url?.split('?')[0] === '/v1/models') {
      this.modelListings.push({ headers: request.headers });
      const model = { type: 'model', id: 'claude-sonnet-4-5', display_name: 'Claude Sonnet 4.5', created_at: '2025-09-29T00:00:00Z' };
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ data: [model], has_more: false, first_id: model.id, last_id: model.id }));
      return;
    }
    if (request.method === 'POST' && request.url?.split('?')[0] === '/v1/messages/count_tokens') {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      this.tokenCounts.push({ body });
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: this.countTokens(body) }));
      return;
    }
    if (request.method !== 'POST' || request.url?.split('?')[0] !== '/v1/messages') {
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(errorBody('not_found_error', 'Not found')));
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const record: { body: any; headers: IncomingMessage['headers']; closedAt?: number } = { body, headers: request.headers };
    this.requests.push(record);
    response.on('close', () => (record.closedAt = Date.now()));
    const reply = this.nextReply();
    if (reply.status) {
      const headers: Record<string, string> = { 'content-type': 'application/json', 'request-id': 'req_fake' };
      if (reply.retryAfter) headers['retry-after'] = reply.retryAfter;
      response.writeHead(reply.status, headers).end(JSON.stringify(errorBody(reply.errorType ?? 'api_error', `fake ${reply.status}`)));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': 'req_fake' });
    const events = streamEvents(body.model, reply);
    for (let i = 0; i < events.length; i++) {
      if (reply.cutAfter !== undefined && i === reply.cutAfter) {
        await new Promise((resolve) => setTimeout(resolve, 50)); // what was written reaches the client first
        return void response.destroy();
      }
      if (reply.errorEventAfter !== undefined && i === reply.errorEventAfter) {
        response.end(sse('error', errorBody(reply.errorType ?? 'overloaded_error', 'Overloaded')));
        return;
      }
      response.write(sse(events[i]!.type, events[i]!));
      if (reply.holdOpen && events[i]!.delta?.type === 'text_delta') return; // until the client goes
    }
    response.end();
  }
}

function errorBody(type: string, message: string) {
  return { type: 'error', error: { type, message } };
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function streamEvents(model: string, reply: AnthropicReply): any[] {
  const usage = reply.usage ?? { input_tokens: 21, output_tokens: 9 };
  const events: any[] = [
    {
      type: 'message_start',
      message: {
        id: 'msg_fake',
        type: 'message',
        role: 'assistant',
        content: [],
        model,
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input_tokens,
          output_tokens: 1,
          cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
          cache_creation_input_tokens: 0,
        },
      },
    },
    { type: 'ping' },
  ];
  let index = 0;
  if (reply.text) {
    events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    for (const piece of reply.text) events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
    events.push({ type: 'content_block_stop', index });
    index++;
  }
  for (const use of reply.toolUses ?? []) {
    events.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: use.id, name: use.name, input: {} } });
    for (const piece of use.inputPieces)
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
    events.push({ type: 'content_block_stop', index });
    index++;
  }
  events.push({
    type: 'message_delta',
    delta: { stop_reason: reply.toolUses?.length ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: {
      output_tokens: usage.output_tokens,
      ...(usage.thinking_tokens !== undefined && { output_tokens_details: { thinking_tokens: usage.thinking_tokens } }),
    },
  });
  events.push({ type: 'message_stop' });
  return events;
}

/** The key a request carried: Anthropic takes `x-api-key`, and its SDK now sends `Authorization: Bearer`. */
export function keyOf(headers: IncomingMessage['headers']): string | undefined {
  const bearer = /^Bearer (.+)$/.exec(String(headers.authorization ?? ''))?.[1];
  return bearer ?? (headers['x-api-key'] as string | undefined);
}
