import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import {
  PylonError,
  ErrorCode,
  MIN_SCHEDULE_INTERVAL_SECONDS,
  scheduledRunIdempotencyKey,
  type ScheduleFired,
  type ScheduleFiringInput,
  type ScheduleOverlap,
} from '@pylon/contracts';
import { AgentRepository } from '@pylon/agents';
import { AgentRun, AgentSchedule, type Page, type PageRequest } from '@pylon/db';
import { AgentRunRepository } from './repositories/agent-run.repository';
import { AgentScheduleRepository } from './repositories/agent-schedule.repository';
import { createOnce, fingerprint } from '@pylon/idempotency';
import { AgentScheduleEngine, InvalidScheduleSpecError } from '@pylon/temporal';
import { AgentRunsService } from './agent-runs.service';
import { canonicalTimeZone, cronError } from './schedule-spec';

/** When a schedule fires: a cron expression in a time zone, or an interval. */
export interface ScheduleTiming {
  cron?: string;
  every_seconds?: number;
  timezone?: string;
}

export interface NewScheduleRequest extends ScheduleTiming {
  agent_version_id: string;
  input: string;
  overlap?: ScheduleOverlap;
  paused?: boolean;
}

export interface ScheduleChanges extends ScheduleTiming {
  input?: string;
  overlap?: ScheduleOverlap;
  paused?: boolean;
}

/** A schedule and the times Temporal will fire it next (none while paused, or while Temporal cannot be asked). */
export interface ScheduleWithNextRuns {
  schedule: AgentSchedule;
  nextRunTimes: Date[];
}

/** How many upcoming firing times a schedule shows. */
const SHOWN_NEXT_RUNS = 5;

/**
 * The rules of agent schedules, for the API and for the firing workflow's activity. A schedule is a row
 * (what the API answers from) and a Temporal Schedule `agent-schedule:<id>` that starts a firing workflow
 * at each nominal time; a firing creates an ordinary run through AgentRunsService.create, keyed by the
 * schedule and the nominal time, so a firing retried after any crash creates its run exactly once.
 */
@Injectable()
export class AgentSchedulesService {
  private readonly logger = new Logger(AgentSchedulesService.name);

  constructor(
    private readonly schedules: AgentScheduleRepository,
    private readonly agents: AgentRepository,
    private readonly runRows: AgentRunRepository,
    private readonly runs: AgentRunsService,
    private readonly engine: AgentScheduleEngine,
  ) {}

  /** Writes the row, then creates its Temporal Schedule; the row is taken back when Temporal refuses. */
  async create(orgId: string, request: NewScheduleRequest, idempotencyKey: string | null): Promise<ScheduleWithNextRuns> {
    const timing = checkedTiming(request);
    const overlap = request.overlap ?? 'skip';
    const paused = request.paused ?? false;
    const requestHash = fingerprint({
      agent_version_id: request.agent_version_id,
      input: request.input,
      cron: timing.cron ?? '',
      every_seconds: String(timing.everySeconds ?? ''),
      timezone: timing.timezone,
      overlap,
      paused: String(paused),
    });
    const schedule = await createOnce<AgentSchedule>(idempotencyKey, requestHash, {
      findByKey: (key) => this.schedules.findByIdempotencyKey(orgId, key),
      admit: async () => {
        if (!(await this.agents.findVersion(orgId, request.agent_version_id))) {
          throw PylonError.invalidRequest('agent_version_id is not an agent version of this organisation');
        }
      },
      insert: async () => {
        const now = new Date();
        const row = Object.assign(new AgentSchedule(), {
          id: randomUUID(),
          orgId,
          agentVersionId: request.agent_version_id,
          input: request.input,
          ...timing,
          overlap,
          paused,
          registered: false,
          idempotencyKey,
          requestHash,
          createdAt: now,
          updatedAt: now,
        });
        return (await this.schedules.insert(orgId, row)) ? row : null;
      },
      work: {
        awaitsStart: (earlier) => !earlier.registered,
        start: async (row) => {
          await this.engine.create(row);
          await this.schedules.markRegistered(orgId, row.id);
          row.registered = true;
        },
        undo: async (row, error) => {
          await this.schedules.delete(orgId, row.id);
          if (error instanceof InvalidScheduleSpecError) return PylonError.invalidRequest(`the schedule is not valid: ${error.message}`);
          this.logger.error({ err: error }, `could not create the Temporal Schedule of schedule ${row.id}; removing it`);
          return new PylonError(ErrorCode.OrchestratorUnavailable, 'the workflow engine is unavailable; nothing was created');
        },
      },
    });
    return this.withNextRuns(schedule);
  }

  async get(orgId: string, scheduleId: string): Promise<ScheduleWithNextRuns> {
    return this.withNextRuns(await this.find(orgId, scheduleId));
  }

  async list(orgId: string, page: PageRequest): Promise<Page<ScheduleWithNextRuns>> {
    const rows = await this.schedules.list(orgId, page);
    return { items: await Promise.all(rows.items.map((row) => this.withNextRuns(row))), nextCursor: rows.nextCursor };
  }

  /** Changes the Temporal Schedule first (it is what fires), then the row; a cron replaces an interval and the reverse. */
  async update(orgId: string, scheduleId: string, changes: ScheduleChanges): Promise<ScheduleWithNextRuns> {
    const current = await this.find(orgId, scheduleId);
    if (changes.cron !== undefined && changes.every_seconds !== undefined) throw PylonError.invalidRequest('give cron or every_seconds, not both');
    const timingChanged = changes.cron !== undefined || changes.every_seconds !== undefined || changes.timezone !== undefined;
    const timing = timingChanged
      ? checkedTiming({
          ...(changes.cron === undefined && changes.every_seconds === undefined
            ? { cron: current.cron ?? undefined, every_seconds: current.everySeconds ?? undefined }
            : { cron: changes.cron, every_seconds: changes.every_seconds }),
          timezone: changes.timezone ?? current.timezone,
        })
      : {};
    const next = Object.assign(new AgentSchedule(), current, {
      ...timing,
      ...(changes.input !== undefined ? { input: changes.input } : {}),
      ...(changes.overlap !== undefined ? { overlap: changes.overlap } : {}),
      ...(changes.paused !== undefined ? { paused: changes.paused } : {}),
    });
    try {
      await this.registered(next, () => this.engine.update(next));
    } catch (error) {
      if (error instanceof InvalidScheduleSpecError) throw PylonError.invalidRequest(`the schedule is not valid: ${error.message}`);
      throw error;
    }
    const updated = await this.schedules.update(orgId, scheduleId, {
      input: next.input,
      cron: next.cron,
      everySeconds: next.everySeconds,
      timezone: next.timezone,
      overlap: next.overlap,
      paused: next.paused,
    });
    if (!updated) throw PylonError.notFound('no such schedule');
    return this.withNextRuns(updated);
  }

  /** One firing now (a run whose nominal time is now), whatever the schedule already runs, paused or not; each trigger its own. */
  async trigger(orgId: string, scheduleId: string): Promise<ScheduleWithNextRuns> {
    const schedule = await this.find(orgId, scheduleId);
    await this.engine.fireNow(schedule);
    return this.withNextRuns(schedule);
  }

  /** Deletes the Temporal Schedule (no more firings), then the row; the schedule's runs stay. */
  async delete(orgId: string, scheduleId: string): Promise<void> {
    await this.find(orgId, scheduleId);
    await this.engine.delete(scheduleId);
    await this.schedules.delete(orgId, scheduleId);
  }

  /** The runs the schedule's firings created, newest first. */
  async runsOf(orgId: string, scheduleId: string, page: PageRequest): Promise<Page<AgentRun>> {
    await this.find(orgId, scheduleId);
    return this.runRows.listBySchedule(orgId, scheduleId, page);
  }

  /**
   * A firing: the run of the schedule at its nominal time, created once whatever retries or replays
   * (its Idempotency-Key is the schedule and the time). No run when the schedule was deleted meanwhile.
   */
  async fire(orgId: string, firing: ScheduleFiringInput, scheduledAt: string): Promise<ScheduleFired> {
    if (!(await this.schedules.findById(orgId, firing.scheduleId))) return { runId: null, final: true };
    const run = await this.runs.create(
      orgId,
      { agent_version_id: firing.agentVersionId, input: firing.input },
      scheduledRunIdempotencyKey(firing.scheduleId, scheduledAt, firing.trigger?.id),
      undefined,
      { scheduleId: firing.scheduleId, scheduledAt: new Date(scheduledAt) },
    );
    if (isFinal(run.status)) return { runId: run.id, final: true };
    const start = await this.runs.runStart(orgId, run);
    return { runId: run.id, final: false, ...(start ? { start } : {}) };
  }

  private async find(orgId: string, scheduleId: string): Promise<AgentSchedule> {
    const schedule = await this.schedules.findById(orgId, scheduleId);
    if (!schedule) throw PylonError.notFound('no such schedule');
    return schedule;
  }

  /** Runs `change` on the schedule's Temporal Schedule, creating it first if a create never got that far. */
  private async registered(schedule: AgentSchedule, change: () => Promise<void>): Promise<void> {
    if (!schedule.registered) {
      await this.engine.create(schedule);
      await this.schedules.markRegistered(schedule.orgId, schedule.id);
      schedule.registered = true;
    }
    await change();
  }

  private async withNextRuns(schedule: AgentSchedule): Promise<ScheduleWithNextRuns> {
    let nextRunTimes: Date[] = [];
    if (schedule.registered && !schedule.paused) {
      try {
        nextRunTimes = ((await this.engine.nextTimes(schedule.id)) ?? []).slice(0, SHOWN_NEXT_RUNS);
      } catch (error) {
        this.logger.warn({ err: error }, `could not read the next firing times of schedule ${schedule.id}`);
      }
    }
    return { schedule, nextRunTimes };
  }
}

function isFinal(status: AgentRun['status']): boolean {
  return status === 'succeeded' || status === 'failed';
}

/** The timing as stored: exactly one of cron and every_seconds, checked, with the zone's canonical name. */
function checkedTiming(timing: ScheduleTiming): { cron: string | null; everySeconds: number | null; timezone: string } {
  const timezone = canonicalTimeZone(timing.timezone ?? 'UTC');
  if (!timezone) throw PylonError.invalidRequest(`timezone "${timing.timezone}" is not an IANA time zone`);
  if ((timing.cron === undefined) === (timing.every_seconds === undefined))
    throw PylonError.invalidRequest('give exactly one of cron and every_seconds');
  if (timing.cron !== undefined) {
    const error = cronError(timing.cron);
    if (error) throw PylonError.invalidRequest(error);
    return { cron: timing.cron.trim(), everySeconds: null, timezone };
  }
  const every = timing.every_seconds!;
  if (!Number.isInteger(every) || every < MIN_SCHEDULE_INTERVAL_SECONDS) {
    throw PylonError.invalidRequest(`every_seconds must be a whole number of seconds, at least ${MIN_SCHEDULE_INTERVAL_SECONDS}`);
  }
  return { cron: null, everySeconds: every, timezone };
}
