import { proxyActivities } from '@temporalio/workflow';
import type { AgentRunActivities } from '@pylon/contracts';

const retention = proxyActivities<AgentRunActivities>({ startToCloseTimeout: '10 minutes', retry: { maximumAttempts: 3 } });

/** Started by the hourly retention schedule: drops run events older than the retention period. */
export async function runEventsRetentionWorkflow(): Promise<{ deleted: number }> {
  return { deleted: await retention.purgeExpiredRunEvents() };
}
