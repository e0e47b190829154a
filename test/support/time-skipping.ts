import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTES, laneTaskQueue, siblingTaskQueue, type EventInput } from '@pylon/contracts';
import { isForgottenUpdate } from '@pylon/temporal';

/** Where scripts/ensure-temporal-test-server.sh writes the wrapper that runs Temporal's Java test server. */
export const TEMPORAL_TEST_SERVER_CACHE = join(
  process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
  'pylon',
  'temporal-test-server',
  'temporal-test-server',
);

/** TEMPORAL_TEST_SERVER, else the cached wrapper; the SDK's own download of the test server cannot work here. */
export function findTemporalTestServer(): string {
  const configured = process.env.TEMPORAL_TEST_SERVER;
  if (configured) {
    if (!existsSync(configured)) {
      throw new Error(`TEMPORAL_TEST_SERVER points at ${configured}, which does not exist: run scripts/ensure-temporal-test-server.sh`);
    }
    return configured;
  }
  if (existsSync(TEMPORAL_TEST_SERVER_CACHE)) return TEMPORAL_TEST_SERVER_CACHE;
  throw new Error(
    'The Temporal time-skipping test server is not installed: run scripts/ensure-temporal-test-server.sh ' +
      '(it resolves io.temporal:temporal-test-server with Maven) and set TEMPORAL_TEST_SERVER to the path it prints',
  );
}

/**
 * A time-skipping test environment on its own test server (a JVM the SDK starts on a free port and kills on
 * teardown). Timers jump forward while a test awaits a workflow's result (`env.client.workflow…result()`) or
 * calls `env.sleep`; otherwise the server's clock runs in real time. Call `teardown()` when done.
 */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const path = findTemporalTestServer();
  const env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path } } });
  // Child workflows carry Pylon's search attributes (OrgId, ResourceId), as the API's starts do. (The test server
  // cannot list search attributes, so they are added without asking first.)
  const keyword = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(Object.values(SEARCH_ATTRIBUTES).map((name) => [name, keyword])),
  });
  return env;
}

/**
 * A workflow test environment on the dev server `npm test` started (TEMPORAL_ADDRESS), with the SDK's
 * runtime logging warnings only; for tests that need real time rather than skipped timers.
 */
export async function devServerWorkflowEnv(): Promise<TestWorkflowEnvironment> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const address = process.env.TEMPORAL_ADDRESS;
  if (!address) throw new Error('workflow tests run under `npm test`, which starts Temporal');
  return TestWorkflowEnvironment.createFromExistingServer({ address });
}

/** Pylon's workflows as the compiled tree holds them (dist-test/workflows), for a test's Worker. */
const WORKFLOWS = require.resolve(join(__dirname, '..', '..', 'workflows', 'index'));

/**
 * A workflow test's workers on `env`, running until the returned function is called: Pylon's workflows
 * with `activities` on `taskQueue`, and beside it the webhooks task queue, whose deliverEvent (what
 * announce() calls) pushes each announced event to `announced`.
 */
export async function startWorkflowWorkers(
  env: TestWorkflowEnvironment,
  taskQueue: string,
  activities: object,
  announced: EventInput[],
): Promise<() => Promise<void>> {
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath: WORKFLOWS, activities });
  const webhooks = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: siblingTaskQueue(taskQueue, 'webhooks'),
    activities: {
      deliverEvent: async (event: EventInput) => {
        announced.push(event);
        return { retrying: 0 };
      },
    },
  });
  // Files are read on the extraction lane (knowledgeIngestWorkflow), by the same scripted activities.
  const extraction = await Worker.create({ connection: env.nativeConnection, taskQueue: laneTaskQueue(taskQueue, 'extraction'), activities });
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const running = Promise.all([worker.runUntil(stopped), webhooks.runUntil(stopped), extraction.runUntil(stopped)]);
  return async () => {
    stop();
    await running;
  };
}

/**
 * The refusal an Update met (what its validator or handler threw): its failure type and message. Fails when
 * it was accepted. Sent again when the server forgot it before its refusal came (as WorkflowStarter does).
 */
export async function updateRefusal(send: () => Promise<unknown>): Promise<[string | undefined, string]> {
  for (let resends = 0; ; resends++) {
    try {
      await send();
    } catch (error) {
      if (resends < 2 && isForgottenUpdate(error)) continue;
      assert.ok(error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure, String(error));
      return [error.cause.type ?? undefined, error.cause.message];
    }
    assert.fail('the Update was accepted');
  }
}
