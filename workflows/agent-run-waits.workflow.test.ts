import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import {
  SIGNALS,
  siblingTaskQueue,
  type ActionAnswer,
  type ActionClosed,
  type AgentRunActivities,
  type AgentRunWorkflowInput,
  type AgentTurn,
  type RequiredActionRequest,
  type TranscriptEntry,
} from '@pylon/contracts';
import { createTimeSkippingEnv } from '../test/support/time-skipping';
import { agentRunWorkflow } from './agent-run.workflow';

const HOUR = 3_600_000;

/** A model that calls `lookup_order` (run by the customer) once, then answers with what it was given. */
function callsThenAnswers(calls: AgentTurn & { kind: 'tool_calls' }) {
  const transcripts: TranscriptEntry[][] = [];
  const takeTurn = async ({ transcript }: { transcript: TranscriptEntry[] }): Promise<AgentTurn> => {
    transcripts.push(transcript);
    return transcript.length === 0 ? calls : { kind: 'answered', eventId: null };
  };
  return { takeTurn, transcripts };
}

const CUSTOMER_CALL = {
  kind: 'tool_calls' as const,
  calls: [{ id: 'c1', name: 'lookup_order', arguments: '{}', runner: 'customer' as const, approval: false }],
};

/** The waits of an agent run, on Temporal's time-skipping test server: days pass in milliseconds. */
describe('agentRunWorkflow waits', () => {
  let env: TestWorkflowEnvironment;

  before(async () => {
    env = await createTimeSkippingEnv();
  });
  after(async () => env?.teardown());

  async function start(activities: Partial<AgentRunActivities>, input: Partial<AgentRunWorkflowInput> = {}) {
    const taskQueue = `waits-${randomUUID()}`;
    const calls: string[] = [];
    const recorded: Array<{ actionId: string; request: RequiredActionRequest }> = [];
    const failures: string[] = [];
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowsPath: require.resolve('./index'),
      activities: {
        takeTurn: activities.takeTurn ?? (async () => ({ kind: 'answered' as const, eventId: null })),
        runTool: async (...args: Parameters<AgentRunActivities['runTool']>) => (
          calls.push('runTool'),
          (activities.runTool ?? (async () => 'ran'))(...args)
        ),
        requireAction: async ({ actionId, request }: { actionId: string; request: RequiredActionRequest }) => {
          calls.push(`requireAction ${request.type}`);
          recorded.push({ actionId, request });
          return null;
        },
        closeAction: async (...args: Parameters<AgentRunActivities['closeAction']>) => (
          calls.push('closeAction'),
          (activities.closeAction ?? (async (): Promise<ActionClosed> => ({ kind: 'expired' })))(...args)
        ),
        isTurnFree: activities.isTurnFree ?? (async () => true),
        firstUnfinishedTurn: async (...args: Parameters<AgentRunActivities['firstUnfinishedTurn']>) => (
          calls.push('firstUnfinishedTurn'),
          (activities.firstUnfinishedTurn ?? (async () => null))(...args)
        ),
        markRunFailed: async ({ error }: { error: string }) => (failures.push(error), null),
      },
    });
    const webhooks = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: siblingTaskQueue(taskQueue, 'webhooks'),
      activities: { deliverEvent: async () => ({ retrying: 0 }) },
    });
    const run: AgentRunWorkflowInput = { runId: randomUUID(), orgId: randomUUID(), runTimeoutSeconds: 30, heartbeatTimeoutSeconds: 5, ...input };
    const handle = await env.client.workflow.start(agentRunWorkflow, { taskQueue, workflowId: `agent-run:${run.runId}`, args: [run] });
    const waitForAction = async () => {
      while (recorded.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      return recorded[recorded.length - 1]!;
    };
    const answer = (actionId: string, value: ActionAnswer) => handle.signal(SIGNALS.actionAnswered, { actionId, answer: value });
    return { handle, calls, failures, waitForAction, answer, worker, webhooks };
  }

  it('waits a day for tool outputs without a task, and the signalled outputs reach the model; the wait does not count against the run timeout', async () => {
    const model = callsThenAnswers(CUSTOMER_CALL);
    const { handle, calls, waitForAction, answer, worker, webhooks } = await start(
      { takeTurn: model.takeTurn },
      { runTimeoutSeconds: 5, actionTimeoutSeconds: 2_592_000 },
    );
    const outcome = await worker.runUntil(
      webhooks.runUntil(async () => {
        const { actionId, request } = await waitForAction();
        assert.deepEqual(request, { type: 'submit_tool_outputs', calls: [{ id: 'c1', name: 'lookup_order', arguments: '{}' }] });
        await env.sleep(24 * HOUR);
        await answer(actionId, { type: 'submit_tool_outputs', tool_outputs: [{ tool_call_id: 'c1', output: 'shipped' }] });
        return handle.result();
      }),
    );
    assert.deepEqual(outcome, { status: 'succeeded' });
    assert.deepEqual(calls, ['requireAction submit_tool_outputs']);
    assert.deepEqual(model.transcripts[1], [
      { role: 'assistant', toolCalls: [{ id: 'c1', name: 'lookup_order', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c1', content: 'shipped' },
    ]);
    // Between recording the action (a local activity's marker) and the signal: the wait's timer and nothing else.
    const events = (await handle.fetchHistory()).events ?? [];
    const signalled = events.findIndex((event) => event.workflowExecutionSignaledEventAttributes);
    let recordedAt = signalled;
    while (recordedAt > 0 && !events[recordedAt]!.markerRecordedEventAttributes) recordedAt--;
    const between = events
      .slice(recordedAt + 1, signalled)
      .filter(
        (event) =>
          !event.workflowTaskScheduledEventAttributes && !event.workflowTaskStartedEventAttributes && !event.workflowTaskCompletedEventAttributes,
      );
    assert.deepEqual(
      between.map((event) => Object.keys(event).find((key) => key.endsWith('EventAttributes') && event[key as keyof typeof event])),
      ['timerStartedEventAttributes'],
      'one timer: nothing ran or polled while the run waited',
    );
  });

  it('an action nobody answers expires after action_timeout_seconds: the run fails with "required action expired"', async () => {
    const model = callsThenAnswers(CUSTOMER_CALL);
    const { handle, calls, failures, worker, webhooks } = await start({ takeTurn: model.takeTurn }, { actionTimeoutSeconds: 3_600 });
    const outcome = await worker.runUntil(webhooks.runUntil(handle.result()));
    assert.deepEqual(outcome, { status: 'failed', error: 'required action expired' });
    assert.deepEqual(calls, ['requireAction submit_tool_outputs', 'closeAction']);
    assert.deepEqual(failures, ['required action expired']);
  });

  it('an answer recorded just before the timer fired (its signal not yet in) is the one the run goes on with', async () => {
    const model = callsThenAnswers(CUSTOMER_CALL);
    const { handle, worker, webhooks } = await start(
      {
        takeTurn: model.takeTurn,
        closeAction: async () => ({
          kind: 'answered',
          answer: { type: 'submit_tool_outputs', tool_outputs: [{ tool_call_id: 'c1', output: 'late but recorded' }] },
        }),
      },
      { actionTimeoutSeconds: 60 },
    );
    assert.deepEqual(await worker.runUntil(webhooks.runUntil(handle.result())), { status: 'succeeded' });
    assert.equal(model.transcripts[1]![1]!.role === 'tool' && model.transcripts[1]![1]!.content, 'late but recorded');
  });

  it('approvals: a denied call is not run and the model hears why; an approved call runs', async () => {
    const gated = {
      kind: 'tool_calls' as const,
      calls: [
        { id: 'a', name: 'knowledge_search', arguments: '{"query":"x"}', runner: 'pylon' as const, approval: true },
        { id: 'b', name: 'knowledge_search', arguments: '{"query":"y"}', runner: 'pylon' as const, approval: true },
      ],
    };
    const model = callsThenAnswers(gated);
    const { handle, calls, waitForAction, answer, worker, webhooks } = await start({ takeTurn: model.takeTurn });
    const outcome = await worker.runUntil(
      webhooks.runUntil(async () => {
        const { actionId, request } = await waitForAction();
        assert.equal(request.type, 'approve_tool_calls');
        await answer(actionId, {
          type: 'approve_tool_calls',
          approvals: [
            { tool_call_id: 'a', approve: false, reason: 'no' },
            { tool_call_id: 'b', approve: true },
          ],
        });
        return handle.result();
      }),
    );
    assert.deepEqual(outcome, { status: 'succeeded' });
    assert.deepEqual(calls, ['requireAction approve_tool_calls', 'runTool']);
    assert.deepEqual(model.transcripts[1]!.slice(1), [
      { role: 'tool', toolCallId: 'a', content: '{"error":"the call was not approved: no"}' },
      { role: 'tool', toolCallId: 'b', content: 'ran' },
    ]);
  });

  it("a conversation's turn sleeps until an earlier turn frees it, then frees the next when it ends", async () => {
    let free = false;
    const { handle, calls, worker, webhooks } = await start(
      { isTurnFree: async () => free, firstUnfinishedTurn: async () => 'next-run' },
      { conversation: { id: randomUUID(), seq: 2 } },
    );
    const outcome = await worker.runUntil(
      webhooks.runUntil(async () => {
        await env.sleep(HOUR);
        free = true;
        await handle.signal(SIGNALS.conversationTurnFreed);
        return handle.result();
      }),
    );
    assert.deepEqual(outcome, { status: 'succeeded' });
    assert.deepEqual(calls, ['firstUnfinishedTurn']);
    const events = (await handle.fetchHistory()).events ?? [];
    assert.ok(
      events.some((event) => event.signalExternalWorkflowExecutionInitiatedEventAttributes?.workflowExecution?.workflowId === 'agent-run:next-run'),
    );
  });
});
