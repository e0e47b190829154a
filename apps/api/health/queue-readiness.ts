import type { QueueBacklog } from '@pylon/temporal';

export type QueueStatus = 'ok' | 'backlogged';

/** One task queue in `/readyz`. */
export interface QueueReport {
  backlog: number;
  workflow_tasks: number;
  activity_tasks: number;
  status: QueueStatus;
}

/**
 * Each queue's backlog (workflow and activity tasks no worker has taken yet) against the threshold:
 * a queue whose backlog passes `maxBacklog` is backlogged. A threshold of 0 checks nothing.
 */
export function queueReports(backlogs: readonly QueueBacklog[], maxBacklog: number): Record<string, QueueReport> {
  return Object.fromEntries(
    backlogs.map((queue) => {
      const backlog = queue.workflowTasks + queue.activityTasks;
      const status: QueueStatus = maxBacklog > 0 && backlog > maxBacklog ? 'backlogged' : 'ok';
      return [queue.taskQueue, { backlog, workflow_tasks: queue.workflowTasks, activity_tasks: queue.activityTasks, status }];
    }),
  );
}
