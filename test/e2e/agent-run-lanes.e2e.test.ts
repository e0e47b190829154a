import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { agentRunWorkflowId } from '@pylon/contracts';
import { Http } from '../support/http';
import { testInfra } from '../support/infra';
import { Stack } from '../support/stack';
import { createTenant, waitForRun, type Tenant } from '../support/tenant';

/**
 * The agent runs' express lane: a run of an organisation with nothing else queued starts on
 * `<prefix>.agent-runs-express`, whose slots no other organisation's backlog holds; a run created while
 * the organisation has runs queued starts on `<prefix>.agent-runs`. Both are polled by every worker.
 */
describe('agent runs: the express lane for organisations with nothing queued', () => {
  let stack: Stack;
  let http: Http;
  let temporal: Client;

  before(async () => {
    // No worker at first: runs stay queued, so an organisation's second run finds its first one waiting.
    stack = await Stack.start({ worker: false });
    http = new Http(stack.url);
    temporal = new Client({ connection: await Connection.connect({ address: testInfra().temporalAddress }) });
  });
  after(async () => {
    await temporal?.connection.close();
    await stack?.stop();
  });

  const queue = (lane: '' | '-express') => `${stack.env.TEMPORAL_TASK_QUEUE_PREFIX}.agent-runs${lane}`;
  async function run(tenant: Tenant, input: string): Promise<{ runId: string; taskQueue: string }> {
    const created = await http.post('/api/v1/agent-runs', {
      token: tenant.key,
      body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input },
    });
    assert.equal(created.status, 200, created.text);
    const runId = created.body.run_id as string;
    return { runId, taskQueue: (await temporal.workflow.getHandle(agentRunWorkflowId(runId)).describe()).taskQueue };
  }

  it("takes the express lane with nothing else queued, the runs' queue behind queued runs; another organisation's backlog does not count", async () => {
    const busy = await createTenant(http);
    const quiet = await createTenant(http);
    const first = await run(busy, 'the first');
    const second = await run(busy, 'the second, behind the first');
    const third = await run(busy, 'the third');
    const neighbour = await run(quiet, "a neighbour's first, beside a busy organisation's backlog");
    assert.deepEqual(
      [first.taskQueue, second.taskQueue, third.taskQueue, neighbour.taskQueue],
      [queue('-express'), queue(''), queue(''), queue('-express')],
    );

    // Every worker polls both lanes: all of them succeed once one starts.
    await stack.startWorker();
    for (const [tenant, { runId }] of [
      [busy, first],
      [busy, second],
      [busy, third],
      [quiet, neighbour],
    ] as const) {
      assert.equal((await waitForRun(http, tenant.key, runId)).run.status, 'succeeded');
    }
  });

  it('AGENT_RUNS_EXPRESS_SLOTS=0 turns the lane off: every run on the runs’ queue', async () => {
    const off = await Stack.start({ env: { AGENT_RUNS_EXPRESS_SLOTS: '0' } });
    try {
      const client = new Http(off.url);
      const tenant = await createTenant(client);
      const created = await client.post('/api/v1/agent-runs', {
        token: tenant.key,
        body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input: 'alone, with the lane off' },
      });
      assert.equal(created.status, 200, created.text);
      const described = await temporal.workflow.getHandle(agentRunWorkflowId(created.body.run_id)).describe();
      assert.equal(described.taskQueue, `${off.env.TEMPORAL_TASK_QUEUE_PREFIX}.agent-runs`);
      assert.equal((await waitForRun(client, tenant.key, created.body.run_id)).run.status, 'succeeded');
    } finally {
      await off.stop();
    }
  });
});
