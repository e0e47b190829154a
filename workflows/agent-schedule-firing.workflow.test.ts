import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { agentScheduleFiringWorkflowId, siblingTaskQueue, type AgentRunWorkflowInput, type ScheduleFiringInput } from '@pylon/contracts';
import { createTimeSkippingEnv } from '../test/support/time-skipping';
import { agentRunWorkflow } from './agent-run.workflow';
import { agentScheduleFiringWorkflow } from './agent-schedule-firing.workflow';

const NOMINAL = '2026-11-27T16:00:00Z';

/** A firing of an agent schedule, on Temporal's time-skipping test server. */
describe('agentScheduleFiringWorkflow', () => {
  let env: TestWorkflowEnvironment;

  before(async () => {
    env = await createTimeSkippingEnv();
  });
  after(async () => env?.teardown());

  async function start(fired: { runId: string | null; final: boolean }, runFinal = false) {
    const taskQueue = `firing-${randomUUID()}`;
    const calls: unknown[] = [];
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowsPath: require.resolve('./index'),
      activities: {
        fireSchedule: async (input: unknown) => (calls.push(['fireSchedule', input]), fired),
        isScheduledRunFinal: async () => (calls.push(['isScheduledRunFinal']), runFinal),
        takeTurn: async () => ({ kind: 'answered' as const, eventId: null }),
      },
    });
    const webhooks = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: siblingTaskQueue(taskQueue, 'webhooks'),
      activities: { deliverEvent: async () => ({ retrying: 0 }) },
    });
    const firing: ScheduleFiringInput = { scheduleId: randomUUID(), orgId: randomUUID(), agentVersionId: randomUUID(), input: 'every morning' };
    // As a Schedule names it: its action's workflow id and the nominal time.
    const workflowId = `${agentScheduleFiringWorkflowId(firing.scheduleId)}-${NOMINAL}`;
    const handle = await env.client.workflow.start(agentScheduleFiringWorkflow, { taskQueue, workflowId, args: [firing] });
    return { taskQueue, firing, workflowId, handle, calls, worker, webhooks };
  }

  it('creates the run of its nominal time, and lasts until the run workflow signals its end', async () => {
    const runId = randomUUID();
    const { taskQueue, firing, workflowId, handle, calls, worker, webhooks } = await start({ runId, final: false });
    const outcome = await worker.runUntil(
      webhooks.runUntil(async () => {
        while (calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
        assert.equal((await handle.describe()).status.name, 'RUNNING', 'the firing waits for its run');
        const run: AgentRunWorkflowInput = {
          runId,
          orgId: firing.orgId,
          runTimeoutSeconds: 30,
          heartbeatTimeoutSeconds: 5,
          scheduleFiringWorkflowId: workflowId,
        };
        const ran = await env.client.workflow.execute(agentRunWorkflow, { taskQueue, workflowId: `agent-run:${runId}`, args: [run] });
        assert.deepEqual(ran, { status: 'succeeded' });
        return handle.result();
      }),
    );
    assert.deepEqual(outcome, { scheduledAt: '2026-11-27T16:00:00.000Z', runId });
    assert.deepEqual(calls, [['fireSchedule', { ...firing, scheduledAt: '2026-11-27T16:00:00.000Z', firingWorkflowId: workflowId }]]);
  });

  it('a run whose end is never signalled (its workflow terminated) is looked up after a day, and the firing ends', async () => {
    const runId = randomUUID();
    const { handle, calls, worker, webhooks } = await start({ runId, final: false }, true);
    const outcome = await worker.runUntil(webhooks.runUntil(handle.result()));
    assert.deepEqual(outcome, { scheduledAt: '2026-11-27T16:00:00.000Z', runId });
    assert.deepEqual(
      calls.map((call) => (call as unknown[])[0]),
      ['fireSchedule', 'isScheduledRunFinal'],
    );
  });

  it('a run found final already (a retried firing), or no run (the schedule was deleted): the firing ends at once', async () => {
    for (const fired of [
      { runId: randomUUID(), final: true },
      { runId: null, final: true },
    ]) {
      const { handle, calls, worker, webhooks } = await start(fired);
      const outcome = await worker.runUntil(webhooks.runUntil(handle.result()));
      assert.deepEqual(outcome, { scheduledAt: '2026-11-27T16:00:00.000Z', runId: fired.runId });
      assert.equal(calls.length, 1);
    }
  });
});
