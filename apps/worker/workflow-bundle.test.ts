import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Worker, type InjectedSinks } from '@temporalio/worker';
import { WORKFLOW_TYPES, type AgentRunWorkflowInput, type WorkflowOutcome, type WorkflowOutcomeSinks } from '@pylon/contracts';
import { devServerWorkflowEnv } from '../../test/support/time-skipping';
import { WORKFLOW_BUNDLE_PATH, workflowBundle } from './workflow-bundle';

/** The worker runs the workflow code `npm run build` bundled: that file, not the sources beside it, is what runs. */
describe('the prebuilt workflow bundle', () => {
  let env: TestWorkflowEnvironment;

  before(async () => {
    env = await devServerWorkflowEnv();
  });
  after(async () => env?.teardown());

  it('is made by the build and is what the worker loads', async () => {
    assert.ok(existsSync(WORKFLOW_BUNDLE_PATH), `npm run build writes ${WORKFLOW_BUNDLE_PATH}`);
    const { bundle, prebuilt } = await workflowBundle(new DefaultLogger('WARN'));
    assert.equal(prebuilt, true);
    assert.deepEqual(bundle, { codePath: WORKFLOW_BUNDLE_PATH });
  });

  it('runs a workflow, with the outcome interceptor bundled in', async () => {
    const outcomes: Array<{ workflowType: string; outcome: WorkflowOutcome }> = [];
    const sinks: InjectedSinks<WorkflowOutcomeSinks> = {
      workflowOutcome: { ended: { fn: (info, outcome) => void outcomes.push({ workflowType: info.workflowType, outcome }) } },
    };
    const taskQueue = `bundle-test-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: { codePath: WORKFLOW_BUNDLE_PATH },
      activities: { takeTurn: async () => ({ kind: 'answered' as const, eventId: null }) },
      sinks,
    });
    const input: AgentRunWorkflowInput = {
      runId: randomUUID(),
      orgId: randomUUID(),
      runTimeoutSeconds: 30,
      heartbeatTimeoutSeconds: 5,
      modelAnswersInProcess: true,
    };
    const result = await worker.runUntil(
      env.client.workflow.execute(WORKFLOW_TYPES.agentRun, { taskQueue, workflowId: `bundle-test:${input.runId}`, args: [input] }),
    );
    assert.deepEqual(result, { status: 'succeeded' });
    assert.deepEqual(outcomes, [{ workflowType: WORKFLOW_TYPES.agentRun, outcome: 'completed' }]);
  });
});
