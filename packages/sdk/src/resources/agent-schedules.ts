import { Paginated } from '../pagination.js';
import { newIdempotencyKey, type RequestOptions, type Transport } from '../transport.js';
import type { Page, QueryParams, RequestBody, ResponseBody } from '../types.js';

export type AgentSchedule = ResponseBody<'/api/v1/agent-schedules/{scheduleId}', 'get'>;
export type AgentScheduleCreate = RequestBody<'/api/v1/agent-schedules', 'post'>;
export type AgentScheduleUpdate = RequestBody<'/api/v1/agent-schedules/{scheduleId}', 'patch'>;
export type AgentScheduleListParams = Omit<QueryParams<'/api/v1/agent-schedules', 'get'>, 'cursor'>;
export type ScheduledRun = ResponseBody<'/api/v1/agent-schedules/{scheduleId}/runs', 'get'>['data'][number];

const path = (scheduleId: string) => `/api/v1/agent-schedules/${encodeURIComponent(scheduleId)}`;

/** Agent schedules: an agent version run on a cron expression or an interval, each firing an ordinary run. */
export class AgentSchedules {
  constructor(private readonly transport: Transport) {}

  /** Creates a schedule (`cron` or `every_seconds`). Retried with one Idempotency-Key (yours in `options.idempotencyKey`, or one made for this call), so it is created once. */
  create(body: AgentScheduleCreate, options: RequestOptions = {}): Promise<AgentSchedule> {
    return this.transport.request('POST', '/api/v1/agent-schedules', {
      ...options,
      body,
      idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
    });
  }

  /** The schedule with its next firing times (`next_run_at`, `next_run_times`). */
  get(scheduleId: string, options: RequestOptions = {}): Promise<AgentSchedule> {
    return this.transport.request('GET', path(scheduleId), options);
  }

  /** Newest first; iterate it for every schedule, page after page. */
  list(params: AgentScheduleListParams = {}, options: RequestOptions = {}): Paginated<AgentSchedule> {
    return new Paginated((cursor) =>
      this.transport.request<Page<AgentSchedule>>('GET', '/api/v1/agent-schedules', { ...options, query: { ...params, cursor } }),
    );
  }

  /** Changes the input, timing or overlap policy; `{paused: true}` pauses, `{paused: false}` resumes. */
  update(scheduleId: string, body: AgentScheduleUpdate, options: RequestOptions = {}): Promise<AgentSchedule> {
    // It sets what it names to the values given: the same request again changes nothing more.
    return this.transport.request('PATCH', path(scheduleId), { ...options, body, repeatable: true });
  }

  /** Fires the schedule once, now (even while paused); the run shows in `runs()` within moments. */
  trigger(scheduleId: string, options: RequestOptions = {}): Promise<AgentSchedule> {
    return this.transport.request('POST', `${path(scheduleId)}/trigger`, options);
  }

  /** Deletes the schedule: no more firings; its runs stay readable. */
  delete(scheduleId: string, options: RequestOptions = {}): Promise<void> {
    return this.transport.request('DELETE', path(scheduleId), options);
  }

  /** The schedule's runs, newest first, each with its `scheduled_at`, page after page. */
  runs(
    scheduleId: string,
    params: Omit<QueryParams<'/api/v1/agent-schedules/{scheduleId}/runs', 'get'>, 'cursor'> = {},
    options: RequestOptions = {},
  ): Paginated<ScheduledRun> {
    return new Paginated((cursor) =>
      this.transport.request<Page<ScheduledRun>>('GET', `${path(scheduleId)}/runs`, { ...options, query: { ...params, cursor } }),
    );
  }
}
