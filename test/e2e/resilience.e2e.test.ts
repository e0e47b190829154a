import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { agentRunWorkflowId } from '@pylon/contracts';
import { FakeOpenAi } from '../support/fake-openai';
import { Http } from '../support/http';
import { testInfra } from '../support/infra';
import { Stack } from '../support/stack';
import { createTenant, createVersion, waitForDocument, waitForRun, type Tenant } from '../support/tenant';
import { sql } from '../support/db';
import { pause, until } from '../support/wait';

describe('resilience', () => {
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;
  let fake: FakeOpenAi;
  let temporal: Client;

  before(async () => {
    fake = await FakeOpenAi.start();
    stack = await Stack.start({ env: { OPENAI_API_KEY: 'sk-test-fake', OPENAI_BASE_URL: fake.baseUrl } });
    http = new Http(stack.url);
    tenant = await createTenant(http);
    temporal = new Client({ connection: await Connection.connect({ address: testInfra().temporalAddress }) });
  });
  after(async () => {
    await stack?.stop();
    await fake?.stop();
    await temporal?.connection.close();
  });

  it('a worker SIGKILLed in the middle of a run: after a restart the run finishes once, with one output', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'openai/gpt-4o-mini' });
    const before = fake.requests.length;
    fake.enqueue({ delayMs: 30_000, content: 'from the dead worker' }, { content: 'from the restarted worker' });
    const created = await http.post('/api/v1/agent-runs', {
      token: tenant.key,
      body: { org_id: tenant.orgId, agent_version_id: versionId, input: 'survive a crash' },
    });
    assert.equal(created.status, 200);
    await until('the LLM call started', () => fake.requests.length > before, { timeoutMs: 15_000, intervalMs: 50 });
    await stack.worker.kill();
    assert.equal((await http.get(`/api/v1/agent-runs/${created.body.run_id}`, { token: tenant.key })).body.status, 'running');
    await stack.startWorker();

    const { run } = await waitForRun(http, tenant.key, created.body.run_id, 60_000);
    assert.equal(run.status, 'succeeded');
    assert.equal(run.output, 'from the restarted worker');
    const handle = temporal.workflow.getHandle(agentRunWorkflowId(created.body.run_id));
    assert.deepEqual(await handle.result(), { status: 'succeeded' });
    let completions = 0;
    for await (const event of (await handle.fetchHistory()).events ?? []) {
      if (event.workflowExecutionCompletedEventAttributes) completions++;
    }
    assert.equal(completions, 1);
  });

  it('a worker SIGKILLed in the middle of an ingestion: its step is noticed by the missing heartbeat and the document is ready within 30 s', async () => {
    const ingesting = await Stack.start({ env: { EMBEDDING_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test-fake', OPENAI_BASE_URL: fake.baseUrl } });
    try {
      const ingestHttp = new Http(ingesting.url);
      const owner = await createTenant(ingestHttp);
      const before = fake.embeddingRequests.length;
      fake.enqueueEmbeddings({ delayMs: 90_000 }); // the dead worker's embedding call: it would not answer before its 2-minute timeout
      const created = await ingestHttp.post('/api/v1/knowledge/documents', {
        token: owner.key,
        body: { org_id: owner.orgId, title: 'Resumed', content: 'Pylon resumes an ingestion whose worker died. '.repeat(40) },
      });
      assert.equal(created.status, 202, created.text);
      await until('the embedding call started', () => fake.embeddingRequests.length > before, { timeoutMs: 15_000, intervalMs: 50 });
      await ingesting.worker.kill();
      const killedAt = Date.now();
      await ingesting.startWorker();
      const document = await waitForDocument(ingestHttp, owner.key, created.body.doc_id, 30_000);
      assert.equal(document.status, 'ready', JSON.stringify(document));
      assert.ok(Date.now() - killedAt < 30_000, `ready ${Date.now() - killedAt} ms after the kill`);
      const [row] = await sql<{ n: number }>('SELECT count(*)::int AS n FROM knowledge_chunks WHERE doc_id = $1', [created.body.doc_id]);
      assert.equal(row!.n, document.chunk_count, 'each chunk once');
    } finally {
      fake.discardQueuedEmbeddings();
      await ingesting.stop();
    }
  });

  it('the API SIGKILLed while runs are being created: every acknowledged run finishes, retries lose nothing', async () => {
    const total = 40;
    const keys = Array.from({ length: total }, (_, i) => `crash-${Date.now()}-${i}`);
    const body = (i: number) => ({ org_id: tenant.orgId, agent_version_id: tenant.versionId, input: `in flight ${i}` });
    let acknowledgedSoFar = 0;
    let settled = 0;
    const attempts: Array<Promise<{ status: number; body: any } | null>> = [];
    for (let i = 0; i < total && stack.api.running; i++) {
      attempts.push(
        http
          .post('/api/v1/agent-runs', { token: tenant.key, body: body(i), headers: { 'idempotency-key': keys[i]! } })
          .then((response) => {
            if (response.status === 200) acknowledgedSoFar++;
            return response;
          })
          .catch(() => null)
          .finally(() => settled++),
      );
      // Kill once some runs are acknowledged, while later ones are still in flight.
      if (acknowledgedSoFar >= 8) await stack.api.kill();
      await pause(5); // the load's shape: one create every 5 ms
    }
    // A slow machine may have answered none of them yet: the kill waits for the first acknowledgement.
    await until('the first create acknowledged', () => !stack.api.running || acknowledgedSoFar > 0 || settled >= attempts.length, {
      timeoutMs: 60_000,
      intervalMs: 5,
    });
    await stack.api.kill();
    const answered = await Promise.all(attempts);
    await stack.startApi();

    const runIds: string[] = [];
    for (let i = 0; i < total; i++) {
      const earlier = answered[i];
      const retried = await http.post('/api/v1/agent-runs', { token: tenant.key, body: body(i), headers: { 'idempotency-key': keys[i]! } });
      assert.equal(retried.status, 200, retried.text);
      if (earlier?.status === 200) assert.equal(retried.body.run_id, earlier.body.run_id, 'a retry returns the acknowledged run');
      runIds.push(retried.body.run_id);
    }
    assert.equal(new Set(runIds).size, total);
    assert.ok(
      answered.some((response) => response?.status === 200),
      'some runs were acknowledged before the crash',
    );
    for (const runId of runIds) {
      const { run } = await waitForRun(http, tenant.key, runId, 60_000);
      assert.equal(run.status, 'succeeded');
    }
    const acknowledged = answered.filter((response) => response?.status === 200).length;
    console.log(`# ${acknowledged} of ${total} creates were acknowledged before the API died; all ${total} runs succeeded`);
  });

  it('50 runs waiting on tool outputs survive SIGKILL of the worker and the API: each succeeds once, with its own output', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, {
      model: 'local/extractive',
      tools: [{ type: 'function', name: 'lookup_order', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } }],
    });
    const runIds = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const created = await http.post('/api/v1/agent-runs', {
          token: tenant.key,
          body: { org_id: tenant.orgId, agent_version_id: versionId, input: `lookup_order for order ${i}` },
        });
        assert.equal(created.status, 200, created.text);
        return created.body.run_id as string;
      }),
    );
    const pendingAction = (runId: string) =>
      until(
        `run ${runId} waiting`,
        async () => {
          const action = await http.get(`/api/v1/agent-runs/${runId}/required-action`, { token: tenant.key });
          return action.status === 200 && (action.body as { tool_calls: Array<{ id: string; arguments: string }> });
        },
        { timeoutMs: 60_000 },
      );
    const actions = await Promise.all(runIds.map(pendingAction));

    await stack.worker.kill();
    await stack.api.kill();
    await stack.startApi();
    await stack.startWorker();

    const answer = (i: number) =>
      http.post(`/api/v1/agent-runs/${runIds[i]}/tool-outputs`, {
        token: tenant.key,
        body: {
          tool_outputs: [
            {
              tool_call_id: actions[i]!.tool_calls[0]!.id,
              output: `{"order":"${JSON.parse(actions[i]!.tool_calls[0]!.arguments).order_id}","n":${i}}`,
            },
          ],
        },
      });
    for (const response of await Promise.all(runIds.map((_, i) => answer(i)))) assert.equal(response.status, 200, response.text);
    // A client that did not see its answer sends it again: the same answer, nothing twice.
    for (const response of await Promise.all(runIds.slice(0, 10).map((_, i) => answer(i)))) assert.equal(response.status, 200, response.text);

    for (const [i, runId] of runIds.entries()) {
      const { run } = await waitForRun(http, tenant.key, runId, 60_000);
      assert.equal(run.status, 'succeeded', run.error);
      assert.match(run.output, new RegExp(`lookup_order returned: \\{"order":"${i}","n":${i}\\}`));
      const log = await http.get(`/api/v1/agent-runs/${runId}/events`, { token: tenant.key });
      const count = (type: string) => log.body.data.filter((event: { type: string }) => event.type === type).length;
      assert.deepEqual([count('tool_call'), count('requires_action'), count('tool_result'), count('succeeded')], [1, 1, 1, 1], `run ${runId}`);
      const handle = temporal.workflow.getHandle(agentRunWorkflowId(runId));
      assert.deepEqual(await handle.result(), { status: 'succeeded' });
      const history = (await handle.fetchHistory()).events ?? [];
      assert.equal(history.filter((event) => event.workflowExecutionCompletedEventAttributes).length, 1);
    }
  });

  it('200 concurrent creates all succeed and all runs reach succeeded', async () => {
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        http.post('/api/v1/agent-runs', {
          token: tenant.key,
          body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input: `concurrent ${i}` },
        }),
      ),
    );
    assert.deepEqual([...new Set(responses.map((response) => response.status))], [200]);
    const ids = responses.map((response) => response.body.run_id as string);
    assert.equal(new Set(ids).size, 200);
    const deadline = Date.now() + 180_000;
    let pending = new Set(ids);
    while (pending.size > 0) {
      assert.ok(Date.now() < deadline, `${pending.size} runs not finished`);
      const still = new Set<string>();
      const listed = new Set<string>();
      let cursor: string | null = null;
      do {
        const page: any = await http.get(`/api/v1/agent-runs?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { token: tenant.key });
        assert.equal(page.status, 200, page.text);
        for (const run of page.body.data) {
          if (!pending.has(run.run_id)) continue;
          listed.add(run.run_id);
          assert.notEqual(run.status, 'failed', run.error);
          if (run.status !== 'succeeded') still.add(run.run_id);
        }
        cursor = page.body.next_cursor;
      } while (cursor);
      // Each created run is on the list (newest first, a stable cursor): one missing from it is a fault, not a run done.
      assert.deepEqual(
        ids.filter((id) => pending.has(id) && !listed.has(id)),
        [],
        'created runs missing from the list',
      );
      pending = still;
      if (pending.size) await pause(500); // the next look at the list
    }
  });
});
