import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import {
  SCHEDULE_FIRING_REFUSALS,
  TEMPORAL_SCHEDULED_START_TIME,
  type AgentScheduleActivities,
  type ScheduleFiringInput,
  type ScheduleFiringOutcome,
} from '@pylon/contracts';
import { runAsChild } from './agent-run/as-child';

const schedules = proxyActivities<AgentScheduleActivities>({
  // A create is a few statements: an attempt on a worker that died is retried after this.
  startToCloseTimeout: '15 seconds',
  // Retried until the database answers, and while the organisation's backlog is full.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', nonRetryableErrorTypes: [...SCHEDULE_FIRING_REFUSALS] },
});

/**
 * One firing of an agent schedule, started by its Temporal Schedule (or by `POST …/trigger`). Creates the
 * run of the firing's nominal time through the idempotent create (a retried attempt finds the same run),
 * then runs it as its child and ends with it, so the Schedule's own overlap policy (skip, buffer one,
 * allow all) applies to runs.
 */
export async function agentScheduleFiringWorkflow(firing: ScheduleFiringInput): Promise<ScheduleFiringOutcome> {
  const scheduledAt =
    firing.trigger?.at ?? nominalTime(workflowInfo().workflowId, workflowInfo().typedSearchAttributes.get(TEMPORAL_SCHEDULED_START_TIME));
  const fired = await schedules.fireSchedule({ ...firing, scheduledAt });
  if (fired.runId && fired.start) await runAsChild(firing.orgId, fired.runId, fired.start);
  return { scheduledAt, runId: fired.runId };
}

/**
 * The time the Schedule meant this firing for: its `TemporalScheduledStartTime`, else the suffix Temporal
 * gives the workflow id (`<id>-2026-11-27T16:00:00Z`).
 */
function nominalTime(workflowId: string, attribute: Date | undefined): string {
  if (attribute) return new Date(attribute).toISOString();
  const suffix = /-(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z)$/.exec(workflowId)?.[1];
  if (!suffix) throw new Error(`firing ${workflowId} has no nominal time`);
  return new Date(suffix).toISOString();
}
