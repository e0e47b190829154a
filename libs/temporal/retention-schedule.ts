import { type Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import { WORKFLOW_TYPES } from '@pylon/contracts';

/**
 * Creates the hourly schedule of the run-event retention workflow unless it exists (every worker of
 * agent runs asks; the first one creates it). Visible and pausable in the Temporal UI's Schedules.
 */
export async function ensureRunEventsRetentionSchedule(client: Client, scheduleId: string, taskQueue: string): Promise<'created' | 'existed'> {
  try {
    await client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every: '1 hour' }] },
      action: { type: 'startWorkflow', workflowType: WORKFLOW_TYPES.runEventsRetention, taskQueue, args: [] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' },
      memo: { purpose: 'drops agent-run events older than RUN_EVENTS_RETENTION_DAYS' },
    });
    return 'created';
  } catch (error) {
    if (error instanceof ScheduleAlreadyRunning) return 'existed';
    throw error;
  }
}
