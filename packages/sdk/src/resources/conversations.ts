import { Paginated } from '../pagination.js';
import { newIdempotencyKey, type RequestOptions, type Transport } from '../transport.js';
import type { Page, QueryParams, RequestBody, ResponseBody } from '../types.js';

export type Conversation = ResponseBody<'/api/v1/conversations/{conversationId}', 'get'>;
export type ConversationCreate = RequestBody<'/api/v1/conversations', 'post'>;
export type ConversationListParams = Omit<QueryParams<'/api/v1/conversations', 'get'>, 'cursor'>;
export type ConversationItem = ResponseBody<'/api/v1/conversations/{conversationId}/items', 'get'>['data'][number];
export type ConversationRunCreate = RequestBody<'/api/v1/conversations/{conversationId}/runs', 'post'>;
export type ConversationRunCreated = ResponseBody<'/api/v1/conversations/{conversationId}/runs', 'post'>;

const path = (conversationId: string) => `/api/v1/conversations/${encodeURIComponent(conversationId)}`;

/** Conversations: runs that are turns, each seeing the earlier ones; their items (inputs, answers, tool calls and outputs) in order. */
export class Conversations {
  readonly runs: ConversationRuns;

  constructor(private readonly transport: Transport) {
    this.runs = new ConversationRuns(transport);
  }

  /** Starts a conversation. Retried with one Idempotency-Key (yours in `options.idempotencyKey`, or one made for this call), so it is created once. */
  create(body: ConversationCreate, options: RequestOptions = {}): Promise<Conversation> {
    return this.transport.request('POST', '/api/v1/conversations', {
      ...options,
      body,
      idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
    });
  }

  get(conversationId: string, options: RequestOptions = {}): Promise<Conversation> {
    return this.transport.request('GET', path(conversationId), options);
  }

  /** Newest first; iterate it for every conversation, page after page. */
  list(params: ConversationListParams = {}, options: RequestOptions = {}): Paginated<Conversation> {
    return new Paginated((cursor) =>
      this.transport.request<Page<Conversation>>('GET', '/api/v1/conversations', { ...options, query: { ...params, cursor } }),
    );
  }

  /** Deletes the conversation and its items; its runs stay readable. */
  delete(conversationId: string, options: RequestOptions = {}): Promise<void> {
    return this.transport.request('DELETE', path(conversationId), options);
  }

  /** Every input, answer, tool call and tool output, oldest first, page after page. */
  items(
    conversationId: string,
    params: Omit<QueryParams<'/api/v1/conversations/{conversationId}/items', 'get'>, 'cursor'> = {},
    options: RequestOptions = {},
  ): Paginated<ConversationItem> {
    return new Paginated((cursor) =>
      this.transport.request<Page<ConversationItem>>('GET', `${path(conversationId)}/items`, { ...options, query: { ...params, cursor } }),
    );
  }
}

/** A conversation's turns. */
export class ConversationRuns {
  constructor(private readonly transport: Transport) {}

  /**
   * Takes a turn: a run of the agent version that sees the conversation's earlier turns (`if_busy` says what
   * happens while an earlier one is not finished; `reject` throws ConversationBusyError). Retried with one
   * Idempotency-Key, so it is created once.
   */
  create(conversationId: string, body: ConversationRunCreate, options: RequestOptions = {}): Promise<ConversationRunCreated> {
    return this.transport.request('POST', `${path(conversationId)}/runs`, {
      ...options,
      body,
      idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
    });
  }
}
