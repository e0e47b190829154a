import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { WorkflowNotFoundError } from '@temporalio/client';
import { type TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import {
  SIGNALS,
  TURN_REFUSED,
  UPDATES,
  conversationWorkflowId,
  siblingTaskQueue,
  type AcceptedTurn,
  type AgentTurn,
  type ConversationWorkflowInput,
  type IfBusy,
  type TurnSubmission,
} from '@pylon/contracts';
import { createTimeSkippingEnv, updateRefusal as refusal } from '../test/support/time-skipping';
import { conversationWorkflow } from './conversation.workflow';

/** A model whose turns each wait until the test lets that run answer. */
function heldModel() {
  const started: string[] = [];
  const releases = new Map<string, () => void>();
  const held = new Map<string, Promise<void>>();
  const gate = (runId: string) => {
    if (!held.has(runId)) held.set(runId, new Promise<void>((resolve) => releases.set(runId, resolve)));
    return held.get(runId)!;
  };
  return {
    started,
    release: (runId: string) => (gate(runId), releases.get(runId)!()),
    /** Lets every held turn answer (so that a worker can drain after a failed assertion). */
    releaseAll: () => releases.forEach((release) => release()),
    takeTurn: async ({ runId }: { runId: string }): Promise<AgentTurn> => {
      started.push(runId);
      await gate(runId);
      return { kind: 'answered', eventId: null };
    },
  };
}

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A conversation's workflow, on Temporal's time-skipping test server, with its turns' runs as children. */
describe('conversationWorkflow', () => {
  let env: TestWorkflowEnvironment;

  before(async () => {
    env = await createTimeSkippingEnv();
  });
  after(async () => env?.teardown());

  async function start(input: Partial<ConversationWorkflowInput> = {}) {
    const taskQueue = `conversation-${randomUUID()}`;
    const model = heldModel();
    const numbered: Array<[string, number]> = [];
    const failed: Array<[string, string]> = [];
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowsPath: require.resolve('./index'),
      activities: {
        takeTurn: model.takeTurn,
        numberTurn: async ({ runId, seq }: { runId: string; seq: number }) => void numbered.push([runId, seq]),
        markRunFailed: async ({ runId, error }: { runId: string; error: string }) => (failed.push([runId, error]), null),
      },
    });
    const webhooks = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: siblingTaskQueue(taskQueue, 'webhooks'),
      activities: { deliverEvent: async () => ({ retrying: 0 }) },
    });
    const conversation: ConversationWorkflowInput = { orgId: randomUUID(), conversationId: randomUUID(), turnsTaken: 0, ...input };
    const handle = await env.client.workflow.start(conversationWorkflow, {
      taskQueue,
      workflowId: conversationWorkflowId(conversation.conversationId),
      args: [conversation],
    });
    const submit = (ifBusy: IfBusy = 'enqueue', runId = randomUUID(), orgId = conversation.orgId) => {
      const submission: TurnSubmission = {
        orgId,
        runId,
        ifBusy,
        start: { input: { runId, orgId, runTimeoutSeconds: 600, heartbeatTimeoutSeconds: 60 }, taskQueue, summary: `turn ${runId}` },
      };
      return handle.executeUpdate<AcceptedTurn, [TurnSubmission]>(UPDATES.submitTurn, { args: [submission] }).then(({ seq }) => ({ runId, seq }));
    };
    /** The status of a turn's run workflow; NOT_STARTED before the conversation started it. */
    const childStatus = (runId: string) =>
      env.client.workflow
        .getHandle(`agent-run:${runId}`)
        .describe()
        .then(
          (description) => description.status.name,
          (error: unknown) => {
            if (error instanceof WorkflowNotFoundError) return 'NOT_STARTED';
            throw error;
          },
        );
    const running = <T>(work: () => Promise<T>) => worker.runUntil(webhooks.runUntil(() => work().finally(model.releaseAll)));
    return { handle, model, numbered, failed, submit, childStatus, running };
  }

  it('runs its turns one at a time, in the order it accepted and numbered them; the same turn sent again keeps its number', async () => {
    const { model, numbered, submit, childStatus, running } = await start({ turnsTaken: 4 });
    await running(async () => {
      const first = await submit();
      const second = await submit();
      const third = await submit();
      assert.deepEqual([first.seq, second.seq, third.seq], [5, 6, 7], 'numbered after the turns the conversation had');
      assert.equal((await submit('enqueue', second.runId)).seq, 6, 'a retried submission is the same turn');
      await until(() => model.started.length === 1, 'the first turn runs');
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(model.started, [first.runId], 'the second waits for the first');
      model.release(first.runId);
      await until(() => model.started.length === 2, 'the second turn runs');
      model.release(second.runId);
      model.release(third.runId);
      await until(async () => model.started.length === 3 && (await childStatus(third.runId)) === 'COMPLETED', 'the third turn ends');
      assert.deepEqual(model.started, [first.runId, second.runId, third.runId]);
      assert.deepEqual(numbered, [
        [first.runId, 5],
        [second.runId, 6],
        [third.runId, 7],
      ]);
    });
  });

  it('reject: refused while a turn runs or waits, accepted once the conversation is idle', async () => {
    const { model, numbered, submit, childStatus, running } = await start();
    await running(async () => {
      const first = await submit();
      assert.deepEqual(await refusal(() => submit('reject')), [TURN_REFUSED.busy, 'an earlier turn of this conversation is not finished']);
      assert.equal(numbered.length, 1, 'a refused turn is not numbered');
      model.release(first.runId);
      await until(async () => (await childStatus(first.runId)) === 'COMPLETED', 'the first turn ends');
      const second = await submit('reject');
      assert.equal(second.seq, 2, 'the refused turn took no number');
      model.release(second.runId);
    });
  });

  it('interrupt: the waiting turns are failed "cancelled" without starting, the running one is cancelled, and the interrupting turn goes next', async () => {
    const { model, failed, submit, childStatus, running } = await start();
    await running(async () => {
      const first = await submit();
      await until(() => model.started.includes(first.runId), 'the first turn runs');
      const waiting = await submit();
      const interrupting = await submit('interrupt');
      assert.equal(interrupting.seq, 3);
      await until(() => model.started.includes(interrupting.runId), 'the interrupting turn runs');
      assert.equal(await childStatus(first.runId), 'CANCELLED');
      assert.ok(!model.started.includes(waiting.runId), 'the waiting turn never started');
      assert.deepEqual(
        failed.sort(),
        [
          [first.runId, 'cancelled'],
          [waiting.runId, 'cancelled'],
        ].sort(),
      );
      model.release(first.runId);
      model.release(interrupting.runId);
      await until(async () => (await childStatus(interrupting.runId)) === 'COMPLETED', 'the interrupting turn ends');
    });
  });

  it('continues as new after its turns per history, carrying the turns still waiting in their order and its count of turns', async () => {
    const { handle, model, numbered, submit, childStatus, running } = await start({ turnsPerHistory: 1 });
    await running(async () => {
      const first = await submit();
      const second = await submit();
      const third = await submit();
      const firstRunId = (await handle.describe()).runId;
      model.release(first.runId);
      await until(async () => (await handle.describe()).runId !== firstRunId, 'the workflow continues as new');
      model.release(second.runId);
      model.release(third.runId);
      await until(async () => (await childStatus(third.runId)) === 'COMPLETED', 'the carried turns run');
      assert.deepEqual(model.started, [first.runId, second.runId, third.runId]);
      const fourth = await submit();
      assert.equal(fourth.seq, 4, 'numbering goes on across the new run');
      model.release(fourth.runId);
      await until(async () => (await childStatus(fourth.runId)) === 'COMPLETED', 'the fourth turn ends');
      assert.deepEqual(
        numbered.map(([, seq]) => seq),
        [1, 2, 3, 4],
      );
    });
  });

  it("another organisation's turn and any turn after the conversation was deleted are refused; the workflow ends once its turns are done", async () => {
    const { handle, model, submit, running } = await start();
    await running(async () => {
      assert.deepEqual(await refusal(() => submit('enqueue', randomUUID(), randomUUID())), [TURN_REFUSED.gone, 'no such conversation']);
      const last = await submit();
      await handle.signal(SIGNALS.conversationDeleted);
      assert.deepEqual(await refusal(() => submit()), [TURN_REFUSED.gone, 'no such conversation']);
      model.release(last.runId);
      await handle.result();
    });
    assert.deepEqual(model.started.length, 1);
  });
});
