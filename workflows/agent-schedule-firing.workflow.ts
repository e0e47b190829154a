import { condition, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import {
  SCHEDULE_FIRING_REFUSED,
  TEMPORAL_SCHEDULED_START_TIME,
  type AgentScheduleActivities,
  type ScheduleFiringInput,
  type ScheduleFiringOutcome,
} from '@pylon/contracts';
import { scheduledRunFinished } from './scheduled-run-finished';

const schedules = proxyActivities<AgentScheduleActivities>({
  // A create is a few statements and a workflow start: an attempt on a worker that died is retried after this.
  startToCloseTimeout: '15 seconds',
  // Retried until the database and the workflow engine answer, and while the organisation's backlog is full.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', nonRetryableErrorTypes: [SCHEDULE_FIRING_REFUSED] },
});

/** How long a firing waits for its run's end before it looks for itself (a run whose workflow was terminated never signals). */
const RUN_END_CHECK = '1 day';

/**
 * One firing of an agent schedule, started by its Temporal Schedule. Creates the run of the firing's
 * nominal time through the idempotent create (a retried or replayed firing finds the same run), then
 * lasts as long as the run, so the Schedule's overlap policy (skip, buffer one, allow all) applies to runs.
 */
export async function agentScheduleFiringWorkflow(firing: ScheduleFiringInput): Promise<ScheduleFiringOutcome> {
  let finished = false;
  setHandler(scheduledRunFinished, () => void (finished = true));
  const info = workflowInfo();
  const scheduledAt = nominalTime(info.workflowId, info.typedSearchAttributes.get(TEMPORAL_SCHEDULED_START_TIME));
  const fired = await schedules.fireSchedule({ ...firing, scheduledAt, firingWorkflowId: info.workflowId });
  if (fired.runId && !fired.final) {
    while (!(await condition(() => finished, RUN_END_CHECK))) {
      if (await schedules.isScheduledRunFinal({ orgId: firing.orgId, runId: fired.runId })) break;
    }
  }
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
