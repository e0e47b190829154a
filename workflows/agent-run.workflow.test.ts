import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { type TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { WorkflowFailedError } from '@temporalio/client';
import {
  NON_RETRYABLE_LLM_ERROR,
  RUN_ALREADY_FINISHED_ERROR,
  siblingTaskQueue,
  type AgentRunActivities,
  type AgentRunWorkflowInput,
  type EventInput,
  type WebhookActivities,
} from '@pylon/contracts';
import { devServerWorkflowEnv } from '../test/support/time-skipping';
import { agentRunWorkflow } from './agent-run.workflow';

/** The workflow's story with its activities replaced: the projection and the LLM are covered end to end elsewhere. */
describe('agentRunWorkflow', () => {
  let env: TestWorkflowEnvironment;

  before(async () => {
    env = await devServerWorkflowEnv();
  });
  after(async () => env?.teardown());

  async function run(
    activities: Partial<AgentRunActivities>,
    options: {
      cancelAfterMs?: number;
      runTimeoutSeconds?: number;
      modelAnswersInProcess?: boolean;
      deliverEvent?: WebhookActivities['deliverEvent'];
    } = {},
  ) {
    const calls: string[] = [];
    const record = <K extends keyof AgentRunActivities>(name: K, impl: AgentRunActivities[K]) =>
      (async (...args: unknown[]) => {
        calls.push(name);
        return (impl as (...a: unknown[]) => unknown)(...args);
      }) as AgentRunActivities[K];
    const taskQueue = `wf-test-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowsPath: require.resolve('./index'),
      activities: {
        takeTurn: record('takeTurn', activities.takeTurn ?? (async () => ({ kind: 'answered' as const, eventId: null }))),
        repairAnswer: record('repairAnswer', activities.repairAnswer ?? (async () => ({ kind: 'answered' as const, eventId: null }))),
        runTool: record('runTool', activities.runTool ?? (async () => 'tool result')),
        markRunFailed: record('markRunFailed', activities.markRunFailed ?? (async () => null)),
      },
    });
    const input: AgentRunWorkflowInput = {
      runId: randomUUID(),
      orgId: randomUUID(),
      runTimeoutSeconds: options.runTimeoutSeconds ?? 30,
      heartbeatTimeoutSeconds: 5,
      ...(options.modelAnswersInProcess ? { modelAnswersInProcess: true } : {}),
    };
    // announce() sends an event to the webhooks task queue beside the run's own.
    const webhooks = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: siblingTaskQueue(taskQueue, 'webhooks'),
      activities: {
        deliverEvent: async (event: EventInput) => {
          calls.push('deliverEvent');
          return (options.deliverEvent ?? (async () => ({ retrying: 0 })))(event);
        },
      },
    });
    const handle = await env.client.workflow.start(agentRunWorkflow, { taskQueue, workflowId: `test:${input.runId}`, args: [input] });
    const outcome = await worker.runUntil(
      webhooks.runUntil(async () => {
        if (options.cancelAfterMs !== undefined) {
          await new Promise((resolve) => setTimeout(resolve, options.cancelAfterMs));
          await handle.cancel();
        }
        return handle.result().catch((error: unknown) => error);
      }),
    );
    const { events } = await handle.fetchHistory();
    /** What Temporal recorded, in order: an activity task by its type, a local activity as its marker. */
    const history = (events ?? []).flatMap((event) => {
      if (event.activityTaskScheduledEventAttributes) return [`activity ${event.activityTaskScheduledEventAttributes.activityType?.name}`];
      if (event.markerRecordedEventAttributes)
        return [event.markerRecordedEventAttributes.markerName === 'core_patch' ? 'patch marker' : 'local activity'];
      if (event.upsertWorkflowSearchAttributesEventAttributes) return ['search attributes upserted'];
      if (event.workflowTaskCompletedEventAttributes) return ['workflow task'];
      return [];
    });
    return { outcome, calls, history };
  }

  it('one turn that answers (and records the answer) is the whole run', async () => {
    const { outcome, calls } = await run({});
    assert.deepEqual(outcome, { status: 'succeeded' });
    assert.deepEqual(calls, ['takeTurn']);
  });

  it('a model that answers in process takes its turn as a local activity: the whole run is one workflow task', async () => {
    const { outcome, calls, history } = await run({}, { modelAnswersInProcess: true });
    assert.deepEqual(outcome, { status: 'succeeded' });
    assert.deepEqual(calls, ['takeTurn']);
    assert.deepEqual(history, ['workflow task', 'local activity']);
    const remote = await run({});
    assert.deepEqual(remote.history, ['workflow task', 'activity takeTurn', 'workflow task']);
  });

  it('an answer that recorded an event announces it with one activity on the webhooks queue, and no patch marker or search-attribute write', async () => {
    const eventId = randomUUID();
    const { outcome, calls, history } = await run(
      { takeTurn: async () => ({ kind: 'answered' as const, eventId }) },
      { modelAnswersInProcess: true, deliverEvent: async () => ({ retrying: 3 }) },
    );
    assert.deepEqual(outcome, { status: 'succeeded' });
    assert.deepEqual(calls, ['takeTurn', 'deliverEvent']);
    assert.deepEqual(history, ['workflow task', 'local activity', 'activity deliverEvent', 'workflow task']);
  });

  it('a structured answer off the schema gets one repair turn of its own in the history, asked with that answer and its fault', async () => {
    const asked: unknown[] = [];
    const { outcome, calls, history } = await run({
      takeTurn: async () => ({ kind: 'off_schema' as const, repair: { answer: '{}', fault: '/ must have name' } }),
      repairAnswer: async (input) => (asked.push(input.repair), { kind: 'answered' as const, eventId: null }),
    });
    assert.deepEqual(outcome, { status: 'succeeded' });
    assert.deepEqual(calls, ['takeTurn', 'repairAnswer']);
    assert.deepEqual(asked, [{ answer: '{}', fault: '/ must have name' }]);
    assert.deepEqual(history, ['workflow task', 'activity takeTurn', 'workflow task', 'activity repairAnswer', 'workflow task']);
  });

  it('with a model in process, tools still run as activities and a cancel still ends the run "cancelled"', async () => {
    const withTools = await run(
      {
        takeTurn: async (input) =>
          input.transcript.length === 0
            ? {
                kind: 'tool_calls' as const,
                calls: [{ id: 'c1', name: 'knowledge_search', arguments: '{"query":"pylon"}', runner: 'pylon', approval: false }],
              }
            : { kind: 'answered', eventId: null },
      },
      { modelAnswersInProcess: true },
    );
    assert.deepEqual(withTools.outcome, { status: 'succeeded' });
    assert.deepEqual(
      withTools.history.filter((entry) => entry !== 'workflow task'),
      ['local activity', 'activity runTool', 'local activity'],
    );
    let error: unknown;
    const cancelled = await run(
      {
        takeTurn: () => new Promise((resolve) => setTimeout(() => resolve({ kind: 'answered', eventId: null }), 4_000)),
        markRunFailed: async (input) => ((error = input.error), null),
      },
      { cancelAfterMs: 500, modelAnswersInProcess: true },
    );
    assert.ok(cancelled.outcome instanceof WorkflowFailedError && cancelled.outcome.cause instanceof CancelledFailure, String(cancelled.outcome));
    assert.equal(error, 'cancelled');
  });

  it('a rejected LLM request is not retried and fails the run with its message', async () => {
    let error: unknown;
    const { outcome, calls } = await run({
      takeTurn: async () => {
        throw ApplicationFailure.nonRetryable('OpenAI answered 400: bad model', NON_RETRYABLE_LLM_ERROR);
      },
      markRunFailed: async (input) => ((error = input.error), null),
    });
    assert.deepEqual(outcome, { status: 'failed', error: 'OpenAI answered 400: bad model' });
    assert.deepEqual(calls, ['takeTurn', 'markRunFailed']);
    assert.equal(error, 'OpenAI answered 400: bad model');
  });

  it('a transient LLM failure is retried', async () => {
    let attempts = 0;
    const { outcome } = await run({
      takeTurn: async () => {
        if (++attempts < 2) throw ApplicationFailure.retryable('OpenAI answered 503', 'LlmUnavailableError');
        return { kind: 'answered', eventId: null };
      },
    });
    assert.deepEqual(outcome, { status: 'succeeded' });
    assert.equal(attempts, 2);
  });

  it('a run over its timeout fails with a timeout error', async () => {
    let error: unknown;
    const { outcome } = await run(
      {
        takeTurn: () => new Promise((resolve) => setTimeout(() => resolve({ kind: 'answered', eventId: null }), 4_000)),
        markRunFailed: async (input) => ((error = input.error), null),
      },
      { runTimeoutSeconds: 1 },
    );
    assert.deepEqual(outcome, { status: 'failed', error: 'run timed out after 1 seconds' });
    assert.equal(error, 'run timed out after 1 seconds');
  });

  it('a cancelled run is marked failed with "cancelled" and the workflow ends cancelled', async () => {
    let error: unknown;
    const { outcome, calls } = await run(
      {
        takeTurn: () => new Promise((resolve) => setTimeout(() => resolve({ kind: 'answered', eventId: null }), 4_000)),
        markRunFailed: async (input) => ((error = input.error), null),
      },
      { cancelAfterMs: 500 },
    );
    assert.ok(outcome instanceof WorkflowFailedError && outcome.cause instanceof CancelledFailure, String(outcome));
    assert.equal(error, 'cancelled');
    assert.ok(calls.includes('markRunFailed'));
  });

  it('runs the tools the model calls, feeding their results back, until it answers', async () => {
    const seenTranscripts: unknown[] = [];
    const { outcome, calls } = await run({
      takeTurn: async (input) => {
        seenTranscripts.push(structuredClone(input.transcript));
        return input.transcript.length === 0
          ? {
              kind: 'tool_calls' as const,
              calls: [{ id: 'c1', name: 'knowledge_search', arguments: '{"query":"pylon"}', runner: 'pylon', approval: false }],
            }
          : { kind: 'answered', eventId: null };
      },
      runTool: async (input) => `hits for ${JSON.parse(input.call.arguments).query}`,
    });
    assert.deepEqual(outcome, { status: 'succeeded' });
    assert.deepEqual(calls, ['takeTurn', 'runTool', 'takeTurn']);
    assert.deepEqual(seenTranscripts[1], [
      { role: 'assistant', toolCalls: [{ id: 'c1', name: 'knowledge_search', arguments: '{"query":"pylon"}' }] },
      { role: 'tool', toolCallId: 'c1', content: 'hits for pylon' },
    ]);
  });

  it('a model that never stops calling tools fails the run', async () => {
    const { outcome } = await run({
      takeTurn: async () => ({
        kind: 'tool_calls' as const,
        calls: [{ id: 'again', name: 'knowledge_search', arguments: '{}', runner: 'pylon', approval: false }],
      }),
    });
    assert.deepEqual(outcome, { status: 'failed', error: 'the agent called tools 6 times without answering' });
  });

  it('a run that already finished is not executed again', async () => {
    const { outcome, calls } = await run({
      takeTurn: async () => {
        throw ApplicationFailure.nonRetryable('run already succeeded', RUN_ALREADY_FINISHED_ERROR);
      },
    });
    assert.deepEqual(outcome, { status: 'failed', error: 'run had already finished' });
    assert.deepEqual(calls, ['takeTurn'], 'nothing recorded, nothing announced');
  });
});
