import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Client } from '@temporalio/client';
import { loadConfig } from '@pylon/config';
import { TaskQueueBacklogReader } from './task-queue-backlog';

interface DescribeRequest {
  namespace: string;
  taskQueue: { name: string };
  taskQueueType: number;
  reportStats: boolean;
}

/** A Temporal client whose DescribeTaskQueue answers from `answer`, counting calls. */
function fakeTemporal(answer: (request: DescribeRequest) => Promise<unknown>) {
  const calls: DescribeRequest[] = [];
  const connection = {
    withDeadline: <T>(_deadline: number, fn: () => Promise<T>) => fn(),
    workflowService: {
      describeTaskQueue: (request: DescribeRequest) => {
        calls.push(request);
        return answer(request);
      },
    },
  };
  return { client: { connection } as unknown as Client, calls };
}

const config = loadConfig({ TEMPORAL_TASK_QUEUE_PREFIX: 'ops', TEMPORAL_NAMESPACE: 'prod' });
/** Workflow tasks (type 1) and activity tasks (type 2) per queue, as protobuf int64s (Long-like, or absent when 0). */
const long = (value: number) => ({ toString: () => String(value) });
const stats = (request: DescribeRequest) =>
  Promise.resolve({
    stats: request.taskQueue.name === 'ops.agent-runs' ? { approximateBacklogCount: long(request.taskQueueType === 1 ? 12 : 3) } : {},
  });

describe('TaskQueueBacklogReader', () => {
  it("asks for every kind's queue and the lanes (agent runs' express, knowledge's extraction), workflow and activity tasks, with stats", async () => {
    const { client, calls } = fakeTemporal(stats);
    const backlog = await new TaskQueueBacklogReader(client, config).read(0, 1_000);
    assert.deepEqual(backlog, [
      { kind: 'agent-runs', taskQueue: 'ops.agent-runs', workflowTasks: 12, activityTasks: 3 },
      { kind: 'agent-runs', taskQueue: 'ops.agent-runs-express', workflowTasks: 0, activityTasks: 0 },
      { kind: 'knowledge', taskQueue: 'ops.knowledge', workflowTasks: 0, activityTasks: 0 },
      { kind: 'knowledge', taskQueue: 'ops.knowledge-extraction', workflowTasks: 0, activityTasks: 0 },
      { kind: 'video', taskQueue: 'ops.video', workflowTasks: 0, activityTasks: 0 },
      { kind: 'webhooks', taskQueue: 'ops.webhooks', workflowTasks: 0, activityTasks: 0 },
    ]);
    assert.equal(calls.length, 12);
    assert.ok(calls.every((call) => call.namespace === 'prod' && call.reportStats));
    assert.deepEqual([...new Set(calls.map((call) => call.taskQueueType))].sort(), [1, 2]);
  });

  it('shares a read in flight and a recent one; a failed read is not kept', async () => {
    let fail = true;
    const { client, calls } = fakeTemporal(async (request) => {
      if (fail) throw new Error('unavailable');
      return stats(request);
    });
    const reader = new TaskQueueBacklogReader(client, config);
    await assert.rejects(reader.read(60_000, 1_000), /unavailable/);
    fail = false;
    const [first, second] = await Promise.all([reader.read(0, 1_000), reader.read(0, 1_000)]);
    assert.equal(first, second, 'one read for both callers');
    assert.equal(await reader.read(60_000, 1_000), first, 'recent enough');
    const callsSoFar = calls.length;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await reader.read(1, 1_000);
    assert.equal(calls.length, callsSoFar + 12, 'too old: read again');
  });

  it('gives up after the timeout when Temporal does not answer', async () => {
    const { client } = fakeTemporal(() => new Promise(() => {}));
    const keepAlive = setInterval(() => {}, 1_000); // the reader's own timer does not hold the process open
    try {
      const started = Date.now();
      await assert.rejects(new TaskQueueBacklogReader(client, config).read(0, 50), /not read within 50 ms/);
      assert.ok(Date.now() - started < 1_000);
    } finally {
      clearInterval(keepAlive);
    }
  });
});
