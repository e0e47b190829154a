import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { agentScheduleFiringWorkflowId, siblingTaskQueue, type AgentTurn, type ScheduleFired, type ScheduleFiringInput } from '@pylon/contracts';
import { createTimeSkippingEnv } from '../test/support/time-skipping';
import { agentScheduleFiringWorkflow } from './agent-schedule-firing.workflow';

const NOMINAL = '2026-11-27T16:00:00Z';

/** A firing of an agent schedule, on Temporal's time-skipping test server. */
describe('agentScheduleFiringWorkflow', () => {
  let env: TestWorkflowEnvironment;

  before(async () => {
    env = await createTimeSkippingEnv();
  });
  after(async () => env?.teardown());

  /** A firing whose fireSchedule answers `fired(taskQueue)`; its run's model answers once `answer` resolves. */
  async function start(
    fired: (taskQueue: string) => ScheduleFired,
    options: { trigger?: ScheduleFiringInput['trigger']; answer?: Promise<void> } = {},
  ) {
    const taskQueue = `firing-${randomUUID()}`;
    const calls: unknown[] = [];
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowsPath: require.resolve('./index'),
      activities: {
        fireSchedule: async (input: unknown) => (calls.push(['fireSchedule', input]), fired(taskQueue)),
        takeTurn: async ({ runId }: { runId: string }): Promise<AgentTurn> => {
          calls.push(['takeTurn', runId]);
          await options.answer;
          return { kind: 'answered', eventId: null };
        },
      },
    });
    const webhooks = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: siblingTaskQueue(taskQueue, 'webhooks'),
      activities: { deliverEvent: async () => ({ retrying: 0 }) },
    });
    const firing: ScheduleFiringInput = {
      scheduleId: randomUUID(),
      orgId: randomUUID(),
      agentVersionId: randomUUID(),
      input: 'every morning',
      ...(options.trigger ? { trigger: options.trigger } : {}),
    };
    // As a Schedule names it: its action's workflow id and the nominal time.
    const workflowId = `${agentScheduleFiringWorkflowId(firing.scheduleId)}-${NOMINAL}`;
    const handle = await env.client.workflow.start(agentScheduleFiringWorkflow, { taskQueue, workflowId, args: [firing] });
    return { firing, handle, calls, running: <T>(work: () => Promise<T>) => worker.runUntil(webhooks.runUntil(work)) };
  }

  const runOf = (runId: string, orgId: string) => (taskQueue: string) => ({
    runId,
    final: false,
    start: { input: { runId, orgId, runTimeoutSeconds: 30, heartbeatTimeoutSeconds: 5 }, taskQueue, summary: `Agent run ${runId}` },
  });

  it('creates the run of its nominal time, runs it as its child, and lasts as long as the run', async () => {
    const runId = randomUUID();
    const orgId = randomUUID();
    let answer!: () => void;
    const { firing, handle, calls, running } = await start(runOf(runId, orgId), { answer: new Promise<void>((resolve) => (answer = resolve)) });
    const outcome = await running(async () => {
      while (calls.length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal((await handle.describe()).status.name, 'RUNNING', 'the firing lasts while its run works');
      const child = await env.client.workflow.getHandle(`agent-run:${runId}`).describe();
      assert.equal(child.parentExecution?.workflowId, handle.workflowId, 'the run is the firing’s child');
      answer();
      return handle.result();
    });
    assert.deepEqual(outcome, { scheduledAt: '2026-11-27T16:00:00.000Z', runId });
    assert.deepEqual(calls, [
      ['fireSchedule', { ...firing, scheduledAt: '2026-11-27T16:00:00.000Z' }],
      ['takeTurn', runId],
    ]);
  });

  it('a triggered firing is the run of the time it was asked for, whatever its workflow id says', async () => {
    const runId = randomUUID();
    const trigger = { id: randomUUID(), at: '2026-12-01T09:30:00.123Z' };
    const { handle, calls, running } = await start(runOf(runId, randomUUID()), { trigger });
    const outcome = await running(() => handle.result());
    assert.deepEqual(outcome, { scheduledAt: trigger.at, runId });
    assert.deepEqual((calls[0] as [string, { scheduledAt: string }])[1].scheduledAt, trigger.at);
  });

  it('a run found final already (a retried firing), or no run (the schedule was deleted): the firing ends at once, with no child', async () => {
    for (const fired of [
      { runId: randomUUID(), final: true },
      { runId: null, final: true },
    ]) {
      const { handle, calls, running } = await start(() => fired);
      const outcome = await running(() => handle.result());
      assert.deepEqual(outcome, { scheduledAt: '2026-11-27T16:00:00.000Z', runId: fired.runId });
      assert.equal(calls.length, 1);
    }
  });
});
