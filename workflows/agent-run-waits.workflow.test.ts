import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import {
  ANSWER_REFUSED,
  UPDATES,
  siblingTaskQueue,
  type ActionAnswer,
  type ActionAnswerUpdate,
  type AgentRunActivities,
  type AgentRunWorkflowInput,
  type AgentTurn,
  type RequiredActionRequest,
  type TranscriptEntry,
  type TurnInput,
} from '@pylon/contracts';
import { createTimeSkippingEnv, updateRefusal as refusal } from '../test/support/time-skipping';
import { agentRunWorkflow } from './agent-run.workflow';

const HOUR = 3_600_000;

/** A model that makes `calls` once, then answers with what it was given. */
function callsThenAnswers(calls: AgentTurn & { kind: 'tool_calls' }) {
  const transcripts: TranscriptEntry[][] = [];
  const takeTurn = async ({ transcript }: { transcript: TranscriptEntry[] }): Promise<AgentTurn> => {
    transcripts.push(transcript);
    return transcript.length === 0 ? calls : { kind: 'answered', eventId: null };
  };
  return { takeTurn, transcripts };
}

const CUSTOMER_CALLS = {
  kind: 'tool_calls' as const,
  calls: [
    { id: 'c1', name: 'lookup_order', arguments: '{}', runner: 'customer' as const, approval: false },
    { id: 'c2', name: 'lookup_order', arguments: '{"order_id":"2"}', runner: 'customer' as const, approval: false },
  ],
};
const OUTPUT_ENTRIES = [
  { tool_call_id: 'c1', output: 'shipped' },
  { tool_call_id: 'c2', output: 'lost' },
];
const OUTPUTS: ActionAnswer = { type: 'submit_tool_outputs', tool_outputs: OUTPUT_ENTRIES };

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
    const answers: ActionAnswer[] = [];
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
        recordAnswer: async ({ answer }: { answer: ActionAnswer }) => void (calls.push('recordAnswer'), answers.push(answer)),
        expireAction: async () => void calls.push('expireAction'),
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
    const answer = (value: ActionAnswer, orgId = run.orgId) =>
      handle.executeUpdate<void, [ActionAnswerUpdate]>(UPDATES.answerAction, { args: [{ orgId, answer: value }] });
    const running = <T>(work: () => Promise<T>) => worker.runUntil(webhooks.runUntil(work));
    return { handle, calls, answers, failures, waitForAction, answer, running };
  }

  it('waits a day for tool outputs without a task; the Update records them and they reach the model; the wait does not count against the run timeout', async () => {
    const model = callsThenAnswers(CUSTOMER_CALLS);
    const { handle, calls, answers, waitForAction, answer, running } = await start(
      { takeTurn: model.takeTurn },
      { runTimeoutSeconds: 5, actionTimeoutSeconds: 2_592_000 },
    );
    const outcome = await running(async () => {
      const { request } = await waitForAction();
      assert.deepEqual(request, {
        type: 'submit_tool_outputs',
        calls: [
          { id: 'c1', name: 'lookup_order', arguments: '{}' },
          { id: 'c2', name: 'lookup_order', arguments: '{"order_id":"2"}' },
        ],
      });
      await env.sleep(24 * HOUR);
      await answer(OUTPUTS);
      assert.deepEqual(answers, [OUTPUTS], 'recorded by the time the Update completes');
      return handle.result();
    });
    assert.deepEqual(outcome, { status: 'succeeded' });
    assert.deepEqual(calls, ['requireAction submit_tool_outputs', 'recordAnswer']);
    assert.deepEqual(model.transcripts[1]!.slice(1), [
      { role: 'tool', toolCallId: 'c1', content: 'shipped' },
      { role: 'tool', toolCallId: 'c2', content: 'lost' },
    ]);
    // Between recording the action (a local activity's marker) and the Update: the wait's timer and nothing else.
    const events = (await handle.fetchHistory()).events ?? [];
    const accepted = events.findIndex((event) => event.workflowExecutionUpdateAcceptedEventAttributes);
    let recordedAt = accepted;
    while (recordedAt > 0 && !events[recordedAt]!.markerRecordedEventAttributes) recordedAt--;
    const between = events
      .slice(recordedAt + 1, accepted)
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

  it("a model in the worker's process records the outputs in its own turn: the answer costs no local activity of its own", async () => {
    const given: Array<TurnInput['answered']> = [];
    const model = callsThenAnswers(CUSTOMER_CALLS);
    const { handle, calls, answers, waitForAction, answer, running } = await start(
      { takeTurn: async (turn) => (given.push(turn.answered), model.takeTurn(turn)) },
      { modelAnswersInProcess: true },
    );
    const outcome = await running(async () => {
      const { actionId } = await waitForAction();
      await answer(OUTPUTS);
      assert.deepEqual(
        given,
        [
          undefined,
          { actionId, calls: CUSTOMER_CALLS.calls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })), answer: OUTPUTS },
        ],
        'the turn after the wait is given the outputs to record',
      );
      return handle.result();
    });
    assert.deepEqual(outcome, { status: 'succeeded' });
    assert.deepEqual(calls, ['requireAction submit_tool_outputs']);
    assert.deepEqual(answers, [], 'no recordAnswer: the turn recorded them');
  });

  it("each wrong answer is refused by the Update's validator before anything is recorded, and the right one lands after them", async () => {
    const model = callsThenAnswers(CUSTOMER_CALLS);
    // The turn after the answer is held until the last refusal, so the run still runs when it arrives.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { handle, calls, waitForAction, answer, running } = await start({
      takeTurn: async (turn) => {
        if (turn.transcript.length > 0) await held;
        return model.takeTurn(turn);
      },
    });
    const bad = ANSWER_REFUSED.badAnswer;
    const notWaiting = ANSWER_REFUSED.notWaiting;
    await running(async () => {
      await waitForAction();
      const outputs = (...entries: Array<[string, string]>): ActionAnswer => ({
        type: 'submit_tool_outputs',
        tool_outputs: entries.map(([tool_call_id, output]) => ({ tool_call_id, output })),
      });
      assert.deepEqual(await refusal(() => answer(outputs(['c1', 'x'], ['nope', 'y']))), [
        bad,
        'tool_outputs.1.tool_call_id: nope is not a call this run waits for',
      ]);
      assert.deepEqual(await refusal(() => answer(outputs(['c1', 'x'], ['c1', 'y']))), [bad, 'tool_outputs.1.tool_call_id: c1 is answered twice']);
      assert.deepEqual(await refusal(() => answer(outputs(['c2', 'x']))), [bad, 'tool_outputs: no answer for call c1 (lookup_order)']);
      assert.deepEqual(await refusal(() => answer({ type: 'approve_tool_calls', approvals: [{ tool_call_id: 'c1', approve: true }] })), [
        notWaiting,
        'the run waits for submit_tool_outputs, not approve_tool_calls',
      ]);
      assert.deepEqual(await refusal(() => answer(OUTPUTS, randomUUID())), [notWaiting, 'no such run']);
      assert.deepEqual(calls, ['requireAction submit_tool_outputs'], 'no refusal recorded anything');
      await answer(OUTPUTS);
      await answer({ type: 'submit_tool_outputs', tool_outputs: [...OUTPUT_ENTRIES].reverse() });
      assert.deepEqual(await refusal(() => answer(outputs(['c1', 'other'], ['c2', 'lost']))), [
        notWaiting,
        "the run's action was already answered differently",
      ]);
      release();
      return handle.result();
    });
    assert.deepEqual(
      calls,
      ['requireAction submit_tool_outputs', 'recordAnswer'],
      'the same answer again (in any order) is accepted and recorded once',
    );
  });

  it('an answer before the run waits for anything is refused: the run waits for no action', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { handle, calls, answer, running } = await start({
      takeTurn: async () => (await held, { kind: 'answered', eventId: null }),
    });
    await running(async () => {
      while ((await handle.describe()).status.name !== 'RUNNING') await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(await refusal(() => answer(OUTPUTS)), [ANSWER_REFUSED.notWaiting, 'the run waits for no action (it is running)']);
      release();
      return handle.result();
    });
    assert.deepEqual(calls, []);
  });

  it('an action nobody answers expires after action_timeout_seconds: recorded expired, and the run fails with "required action expired"', async () => {
    const model = callsThenAnswers(CUSTOMER_CALLS);
    const { handle, calls, failures, running } = await start({ takeTurn: model.takeTurn }, { actionTimeoutSeconds: 3_600 });
    const outcome = await running(() => handle.result());
    assert.deepEqual(outcome, { status: 'failed', error: 'required action expired' });
    assert.deepEqual(calls, ['requireAction submit_tool_outputs', 'expireAction']);
    assert.deepEqual(failures, ['required action expired']);
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
    const { handle, calls, waitForAction, answer, running } = await start({ takeTurn: model.takeTurn });
    const outcome = await running(async () => {
      const { request } = await waitForAction();
      assert.equal(request.type, 'approve_tool_calls');
      await answer({
        type: 'approve_tool_calls',
        approvals: [
          { tool_call_id: 'a', approve: false, reason: 'no' },
          { tool_call_id: 'b', approve: true },
        ],
      });
      return handle.result();
    });
    assert.deepEqual(outcome, { status: 'succeeded' });
    assert.deepEqual(calls, ['requireAction approve_tool_calls', 'recordAnswer', 'runTool']);
    assert.deepEqual(model.transcripts[1]!.slice(1), [
      { role: 'tool', toolCallId: 'a', content: '{"error":"the call was not approved: no"}' },
      { role: 'tool', toolCallId: 'b', content: 'ran' },
    ]);
  });
});
