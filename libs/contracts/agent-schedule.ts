import { ErrorCode } from './error-codes';
import type { RunStart } from './conversation';
import { SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';

/** What a firing does while the schedule's previous run is not final yet (Temporal's overlap policy). */
export const SCHEDULE_OVERLAPS = ['skip', 'buffer_one', 'allow_all'] as const;
export type ScheduleOverlap = (typeof SCHEDULE_OVERLAPS)[number];

/** The shortest interval between two firings of an `every_seconds` schedule. */
export const MIN_SCHEDULE_INTERVAL_SECONDS = 1;

/** The Temporal Schedule of an agent schedule (visible in the Temporal UI's Schedules). */
export function agentScheduleTemporalId(scheduleId: string): string {
  return `agent-schedule:${scheduleId}`;
}

/** The workflow id of a schedule's firings; Temporal appends `-<nominal time>` to it for each firing. */
export function agentScheduleFiringWorkflowId(scheduleId: string): string {
  return `agent-schedule-firing:${scheduleId}`;
}

/** The Idempotency-Key of the run a firing creates: one run per schedule and nominal time, however often it is retried. */
export function scheduledRunIdempotencyKey(scheduleId: string, scheduledAt: string, triggerId?: string): string {
  return triggerId ? `schedule:${scheduleId}:trigger:${triggerId}` : `schedule:${scheduleId}:${scheduledAt}`;
}

/** The time Temporal meant to start a scheduled workflow, set by the Schedule on every workflow it starts. */
export const TEMPORAL_SCHEDULED_START_TIME = defineSearchAttributeKey('TemporalScheduledStartTime', SearchAttributeType.DATETIME);

/** The firing workflow's arguments, fixed in the Schedule's action (a PATCH of the input updates the action). */
export interface ScheduleFiringInput {
  scheduleId: string;
  orgId: string;
  agentVersionId: string;
  input: string;
  /** A firing asked for through the API (`POST …/trigger`), not by the Schedule: each its own run, at the time it was asked for. */
  trigger?: { id: string; at: string };
}

/** The run a firing created (or found, when it is retried), and whether it is final already; no run when the schedule is gone. */
export interface ScheduleFired {
  runId: string | null;
  final: boolean;
  /** How to start the run's workflow (the firing's child), while the run is not final. */
  start?: RunStart;
}

export interface ScheduleFiringOutcome {
  scheduledAt: string;
  runId: string | null;
}

/**
 * The codes of the refusals a firing's retry cannot change (the version is not the organisation's), and a
 * priced model with an empty balance (the firing fails, saying so in the Temporal UI; the next one tries
 * again): the worker fails the activity with the PylonError's code as its type. A full backlog or an
 * engine outage is retried.
 */
export const SCHEDULE_FIRING_REFUSALS: readonly ErrorCode[] = [
  ErrorCode.InvalidRequest,
  ErrorCode.NotFound,
  ErrorCode.IdempotencyKeyReused,
  ErrorCode.InsufficientTokens,
];

/** Activities of the firing workflow. Workflows import this interface as a type only. */
export interface AgentScheduleActivities {
  /** Creates the firing's run through the idempotent create (key: schedule id + nominal time), recording the schedule on it. */
  fireSchedule(input: ScheduleFiringInput & { scheduledAt: string }): Promise<ScheduleFired>;
}
