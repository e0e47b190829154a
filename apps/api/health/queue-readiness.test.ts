import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { queueReports } from './queue-readiness';

const queue = (taskQueue: string, workflowTasks: number, activityTasks: number) => ({
  kind: 'agent-runs' as const,
  taskQueue,
  workflowTasks,
  activityTasks,
});

describe('queueReports', () => {
  it('sums workflow and activity tasks; a queue is backlogged only past the threshold', () => {
    const reports = queueReports([queue('pylon.agent-runs', 3, 1), queue('pylon.video', 2, 1), queue('pylon.webhooks', 0, 0)], 3);
    assert.deepEqual(reports, {
      'pylon.agent-runs': { backlog: 4, workflow_tasks: 3, activity_tasks: 1, status: 'backlogged' },
      'pylon.video': { backlog: 3, workflow_tasks: 2, activity_tasks: 1, status: 'ok' },
      'pylon.webhooks': { backlog: 0, workflow_tasks: 0, activity_tasks: 0, status: 'ok' },
    });
  });

  it('a threshold of 0 checks nothing', () => {
    assert.equal(queueReports([queue('pylon.agent-runs', 1_000_000, 0)], 0)['pylon.agent-runs']!.status, 'ok');
  });
});
