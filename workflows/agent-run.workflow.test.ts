import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { WorkflowFailedError } from '@temporalio/client';
import { NON_RETRYABLE_LLM_ERROR, type AgentRunActivities, type AgentRunWorkflowInput } from '@pylon/contracts';
import { agentRunWorkflow } from './agent-run.workflow';

/** The workflow's story with its activities replaced: the projection and the LLM are covered end to end elsewhere. */
describe('agentRunWorkflow', () => {
  let env: TestWorkflowEnvironment;

  before(async () => {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    const address = process.env.TEMPORAL_ADDRESS;
    if (!address) throw new Error('workflow tests run under `npm test`, which starts Temporal');
    env = await TestWorkflowEnvironment.createFromExistingServer({ address });
  });
  after(async () => env?.teardown());

  async function run(activities: Partial<AgentRunActivities>, options: { cancelAfterMs?: number } = {}) {
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
        markRunRunning: record('markRunRunning', activities.markRunRunning ?? (async () => ({ executable: true, runTimeoutSeconds: 30, heartbeatTimeoutSeconds: 5 }))),
        generateRunOutput: record('generateRunOutput', activities.generateRunOutput ?? (async () => 'hello')),
        markRunSucceeded: record('markRunSucceeded', activities.markRunSucceeded ?? (async () => undefined)),
        markRunFailed: record('markRunFailed', activities.markRunFailed ?? (async () => undefined)),
      },
    });
    const input: AgentRunWorkflowInput = { runId: randomUUID(), orgId: randomUUID() };
    const outcome = await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(agentRunWorkflow, { taskQueue, workflowId: `test:${input.runId}`, args: [input] });
      if (options.cancelAfterMs !== undefined) {
        await new Promise((resolve) => setTimeout(resolve, options.cancelAfterMs));
        await handle.cancel();
      }
      return handle.result().catch((error: unknown) => error);
    });
    return { outcome, calls };
  }

  it('marks running, generates, then records the output', async () => {
    let recorded: unknown;
    const { outcome, calls } = await run({ markRunSucceeded: async (input) => void (recorded = input.output) });
    assert.deepEqual(outcome, { status: 'succeeded' });
    assert.deepEqual(calls, ['markRunRunning', 'generateRunOutput', 'markRunSucceeded']);
    assert.equal(recorded, 'hello');
  });

  it('a rejected LLM request is not retried and fails the run with its message', async () => {
    let error: unknown;
    const { outcome, calls } = await run({
      generateRunOutput: async () => {
        throw ApplicationFailure.nonRetryable('OpenAI answered 400: bad model', NON_RETRYABLE_LLM_ERROR);
      },
      markRunFailed: async (input) => void (error = input.error),
    });
    assert.deepEqual(outcome, { status: 'failed', error: 'OpenAI answered 400: bad model' });
    assert.deepEqual(calls, ['markRunRunning', 'generateRunOutput', 'markRunFailed']);
    assert.equal(error, 'OpenAI answered 400: bad model');
  });

  it('a transient LLM failure is retried', async () => {
    let attempts = 0;
    const { outcome } = await run({
      generateRunOutput: async () => {
        if (++attempts < 2) throw ApplicationFailure.retryable('OpenAI answered 503', 'LlmUnavailableError');
        return 'second try';
      },
    });
    assert.deepEqual(outcome, { status: 'succeeded' });
    assert.equal(attempts, 2);
  });

  it('a run over its timeout fails with a timeout error', async () => {
    let error: unknown;
    const { outcome } = await run({
      markRunRunning: async () => ({ executable: true, runTimeoutSeconds: 1, heartbeatTimeoutSeconds: 5 }),
      generateRunOutput: () => new Promise<string>((resolve) => setTimeout(() => resolve('late'), 4_000)),
      markRunFailed: async (input) => void (error = input.error),
    });
    assert.deepEqual(outcome, { status: 'failed', error: 'run timed out after 1 seconds' });
    assert.equal(error, 'run timed out after 1 seconds');
  });

  it('a cancelled run is marked failed with "cancelled" and the workflow ends cancelled', async () => {
    let error: unknown;
    const { outcome, calls } = await run(
      {
        generateRunOutput: () => new Promise<string>((resolve) => setTimeout(() => resolve('late'), 4_000)),
        markRunFailed: async (input) => void (error = input.error),
      },
      { cancelAfterMs: 500 },
    );
    assert.ok(outcome instanceof WorkflowFailedError && outcome.cause instanceof CancelledFailure, String(outcome));
    assert.equal(error, 'cancelled');
    assert.ok(calls.includes('markRunFailed'));
  });

  it('a run that already finished is not executed again', async () => {
    const { outcome, calls } = await run({ markRunRunning: async () => ({ executable: false, runTimeoutSeconds: 30, heartbeatTimeoutSeconds: 5 }) });
    assert.equal((outcome as { status: string }).status, 'failed');
    assert.deepEqual(calls, ['markRunRunning']);
  });
});
