import { Paginated } from '../pagination.js';
import { TERMINAL_EVENTS, streamRunEvents, type RunEvent, type StreamOptions } from '../run-stream.js';
import { newIdempotencyKey, type RequestOptions, type Transport } from '../transport.js';
import type { Page, QueryParams, RequestBody, ResponseBody } from '../types.js';

export type AgentRunCreate = RequestBody<'/api/v1/agent-runs', 'post'>;
export type AgentRunCreated = ResponseBody<'/api/v1/agent-runs', 'post'>;
export type AgentRun = ResponseBody<'/api/v1/agent-runs/{runId}', 'get'>;
export type AgentRunListParams = Omit<QueryParams<'/api/v1/agent-runs', 'get'>, 'cursor'>;
type StoredEvent = ResponseBody<'/api/v1/agent-runs/{runId}/events', 'get'>['data'][number];

const path = (runId: string) => `/api/v1/agent-runs/${encodeURIComponent(runId)}`;

/** Agent runs: create (safe to retry), read, list, cancel, and follow live. */
export class AgentRuns {
  constructor(private readonly transport: Transport) {}

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
}
