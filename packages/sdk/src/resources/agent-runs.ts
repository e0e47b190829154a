import { Paginated } from '../pagination.js';
import { TERMINAL_EVENTS, streamRunEvents, type RunEvent, type StreamOptions } from '../run-stream.js';
import { driveRun, type RunToolsOptions } from '../run-tools.js';
import { newIdempotencyKey, type RequestOptions, type Transport } from '../transport.js';
import type { Page, QueryParams, RequestBody, ResponseBody } from '../types.js';
import { ConversationRuns, type ConversationRunCreate } from './conversations.js';

export type AgentRunCreate = RequestBody<'/api/v1/agent-runs', 'post'>;
export type AgentRunCreated = ResponseBody<'/api/v1/agent-runs', 'post'>;
export type AgentRun = ResponseBody<'/api/v1/agent-runs/{runId}', 'get'>;
export type AgentRunListParams = Omit<QueryParams<'/api/v1/agent-runs', 'get'>, 'cursor'>;
type StoredEvent = ResponseBody<'/api/v1/agent-runs/{runId}/events', 'get'>['data'][number];
/** What a waiting run needs: the outputs of function calls (`submit_tool_outputs`) or decisions on calls (`approve_tool_calls`). */
export type RequiredAction = ResponseBody<'/api/v1/agent-runs/{runId}/required-action', 'get'>;
/** One call of a required action: answer it by its `id`; `arguments` is the model's JSON text. */
export type RequiredToolCall = RequiredAction['tool_calls'][number];
export type ToolOutputsSubmit = RequestBody<'/api/v1/agent-runs/{runId}/tool-outputs', 'post'>;
export type ToolApprovalsSubmit = RequestBody<'/api/v1/agent-runs/{runId}/tool-approvals', 'post'>;
/** What a run's model turns took and cost: each turn's tokens (`counted_by` the provider or a tokenizer) and service tokens, and the total. */
export type RunUsage = ResponseBody<'/api/v1/agent-runs/{runId}/usage', 'get'>;
/** One model call of a run: its input and output tokens, its cost in service tokens, and whether the ledger paid it. */
export type RunUsageTurn = RunUsage['turns'][number];

const path = (runId: string) => `/api/v1/agent-runs/${encodeURIComponent(runId)}`;

/** Agent runs: create (safe to retry), read, list, cancel, follow live, and answer what they wait for. */
export class AgentRuns {
  private readonly conversationRuns: ConversationRuns;

  constructor(private readonly transport: Transport) {
    this.conversationRuns = new ConversationRuns(transport);
  }

  /** Queues a run. Retried with one Idempotency-Key (yours in `options.idempotencyKey`, or one made for this call), so it is created once. */
  create(body: AgentRunCreate, options: RequestOptions = {}): Promise<AgentRunCreated> {
    return this.transport.request('POST', '/api/v1/agent-runs', { ...options, body, idempotencyKey: options.idempotencyKey ?? newIdempotencyKey() });
  }

  get(runId: string, options: RequestOptions = {}): Promise<AgentRun> {
    return this.transport.request('GET', path(runId), options);
  }

  /** Newest first; iterate it for every run, page after page. */
  list(params: AgentRunListParams = {}, options: RequestOptions = {}): Paginated<AgentRun> {
    return new Paginated((cursor) =>
      this.transport.request<Page<AgentRun>>('GET', '/api/v1/agent-runs', { ...options, query: { ...params, cursor } }),
    );
  }

  /** Stops a queued or running run; it ends failed with error "cancelled". Cancelling twice answers the same run. */
  cancel(runId: string, options: RequestOptions = {}): Promise<AgentRun> {
    return this.transport.request('POST', `${path(runId)}/cancel`, { ...options, repeatable: true });
  }

  /** The run's tokens and cost, per model turn and in total (each turn was debited from the ledger when it was recorded). */
  usage(runId: string, options: RequestOptions = {}): Promise<RunUsage> {
    return this.transport.request('GET', `${path(runId)}/usage`, options);
  }

  /** The stored events after `after`, page after page. */
  events(runId: string, params: { after?: number; limit?: number } = {}, options: RequestOptions = {}): Paginated<StoredEvent> {
    return new Paginated((cursor) =>
      this.transport.request<Page<StoredEvent>>('GET', `${path(runId)}/events`, {
        ...options,
        query: { limit: params.limit, after: cursor ?? params.after },
      }),
    );
  }

  /** The run's events as they happen, to its terminal event, resuming with Last-Event-ID after a dropped connection. */
  stream(runId: string, options: StreamOptions = {}): AsyncGenerator<RunEvent> {
    return streamRunEvents(this.transport, runId, options);
  }

  /** Creates a run and streams its events to the end. */
  async *createAndStream(body: AgentRunCreate, options: RequestOptions & StreamOptions = {}): AsyncGenerator<RunEvent> {
    const created = await this.create(body, options);
    yield* this.stream(created.run_id, options);
  }

  /** Creates a run and waits (on its event stream) until it finished; answers the finished run. */
  async createAndWait(body: AgentRunCreate, options: RequestOptions & StreamOptions = {}): Promise<AgentRun> {
    for await (const event of this.createAndStream(body, options)) {
      if (TERMINAL_EVENTS.has(event.type)) return event.data as AgentRun;
    }
    throw new Error('the run stream ended without a terminal event');
  }

  /** What the run waits for now: tool outputs or approvals. The run stays `running` meanwhile; NotFoundError when it waits for nothing. */
  requiredAction(runId: string, options: RequestOptions = {}): Promise<RequiredAction> {
    return this.transport.request('GET', `${path(runId)}/required-action`, options);
  }

  /**
   * Answers every function call the run waits for; it goes on with the outputs. The same submission again
   * answers the same (so it is retried like a read); RunNotWaitingError when the run waits for none.
   */
  submitToolOutputs(runId: string, body: ToolOutputsSubmit, options: RequestOptions = {}): Promise<AgentRun> {
    return this.transport.request('POST', `${path(runId)}/tool-outputs`, { ...options, body, repeatable: true });
  }

  /** Approves or denies every call the run waits for (a denial's `reason` is told to the model); retried like `submitToolOutputs`. */
  approveToolCalls(runId: string, body: ToolApprovalsSubmit, options: RequestOptions = {}): Promise<AgentRun> {
    return this.transport.request('POST', `${path(runId)}/tool-approvals`, { ...options, body, repeatable: true });
  }

  /**
   * Creates a run (or, with `conversationId`, a turn of that conversation; `if_busy` only then) and drives it
   * to its end: it follows the run's event stream and answers each required action here, function calls
   * with `tools[name](args)` and approvals with `approve(call)` (every call approved without it). Answers
   * the finished run, succeeded or failed.
   */
  async runTools(params: AgentRunCreate | ConversationRunCreate, options: RunToolsOptions = {}): Promise<AgentRun> {
    const { conversationId, idempotencyKey, headers, maxRetries, timeout, signal } = options;
    const createOptions: RequestOptions = { idempotencyKey, headers, maxRetries, timeout, signal };
    const created =
      conversationId === undefined
        ? await this.create(params, createOptions)
        : await this.conversationRuns.create(conversationId, params, createOptions);
    return driveRun(this, created.run_id, options);
  }
}
