import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import { agentRunWorkflowId } from '@pylon/contracts';
import { FakeOpenAi } from '../support/fake-openai';
import { Http } from '../support/http';
import { testInfra } from '../support/infra';
import { Stack } from '../support/stack';
import { createKey, createTenant, createVersion, waitForRun, type Tenant } from '../support/tenant';
import { holdsFor, until } from '../support/wait';

const RUN_FIELDS = ['agent_version_id', 'created_at', 'error', 'input', 'org_id', 'output', 'run_id', 'status', 'updated_at'];

describe('agent runs end to end', () => {
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;
  let fake: FakeOpenAi;
  let temporal: Client;

  const create = (fields: Partial<{ agent_version_id: string; input: string }> = {}, headers: Record<string, string> = {}) =>
    http.post('/api/v1/agent-runs', {
      token: tenant.key,
      headers,
      body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input: 'What is Pylon?', ...fields },
    });

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

  it('GET /api/v1/models lists the providers a version can name, whether the organisation can run each and on whose key (agents:manage)', async () => {
    const models = await http.get('/api/v1/models', { token: tenant.key });
    assert.equal(models.status, 200, models.text);
    assert.deepEqual(models.body, {
      data: [
        { provider: 'local', configured: true, available: true, takes_key: false, key_source: null, models: ['local/extractive', 'local/echo'] },
        { provider: 'openai', configured: true, available: true, takes_key: true, key_source: 'operator', models: null },
        { provider: 'anthropic', configured: false, available: false, takes_key: true, key_source: null, models: null },
        { provider: 'google', configured: false, available: false, takes_key: true, key_source: null, models: null },
      ],
    });
    const reader = await createKey(http, tenant.orgId, ['runs:read']);
    const refused = await http.get('/api/v1/models', { token: reader });
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, { error: 'insufficient_scope' });
    const extra = await http.get('/api/v1/models?provider=openai', { token: tenant.key });
    assert.equal(extra.status, 400);
    assert.deepEqual(extra.body, { error: 'invalid_request' });
  });

  it('create answers exactly {run_id, status, created_at}; the run goes queued → running → succeeded', async () => {
    const created = await create();
    assert.equal(created.status, 200);
    assert.deepEqual(Object.keys(created.body).sort(), ['created_at', 'run_id', 'status']);
    assert.equal(created.body.status, 'queued');
    assert.equal(new Date(created.body.created_at).toISOString(), created.body.created_at);

    const { run, seen } = await waitForRun(http, tenant.key, created.body.run_id);
    assert.deepEqual(Object.keys(run).sort(), RUN_FIELDS);
    assert.equal(run.status, 'succeeded');
    assert.match(run.output, /local\/extractive: offline extractive answerer, not a language model/);
    assert.equal(run.error, null);
    assert.equal(run.org_id, tenant.orgId);
    assert.equal(run.agent_version_id, tenant.versionId);
    assert.equal(run.input, 'What is Pylon?');
    assert.equal(run.created_at, created.body.created_at);
    assert.ok(new Date(run.updated_at) > new Date(run.created_at), 'updated_at moved');
    assert.equal(seen[seen.length - 1], 'succeeded');
    for (const status of seen) assert.ok(['queued', 'running', 'succeeded'].includes(status));
  });

  it("the run's workflow is agent-run:<run_id>, findable by OrgId and ResourceId", async () => {
    const created = await create();
    await waitForRun(http, tenant.key, created.body.run_id);
    const handle = temporal.workflow.getHandle(agentRunWorkflowId(created.body.run_id));
    assert.deepEqual(await handle.result(), { status: 'succeeded' });
    const description = await handle.describe();
    assert.equal(description.status.name, 'COMPLETED');
    assert.equal(description.type, 'agentRunWorkflow');
    // local/extractive answers inside the worker: its turn is a local activity, the run one workflow task.
    const { events } = await handle.fetchHistory();
    assert.equal(events?.filter((event) => event.workflowTaskCompletedEventAttributes).length, 1);
    assert.equal(events?.filter((event) => event.activityTaskScheduledEventAttributes).length, 0);
    assert.equal(events?.filter((event) => event.markerRecordedEventAttributes).length, 1);
    // Visibility is eventually consistent: the workflow is listed a moment after it ran.
    const found = await until(
      'the workflow listed by OrgId and ResourceId',
      async () => {
        const listed: string[] = [];
        for await (const workflow of temporal.workflow.list({ query: `OrgId = "${tenant.orgId}" AND ResourceId = "${created.body.run_id}"` })) {
          listed.push(workflow.workflowId);
        }
        return listed.length > 0 && listed;
      },
      { timeoutMs: 15_000, intervalMs: 250 },
    );
    assert.deepEqual(found, [agentRunWorkflowId(created.body.run_id)]);
  });

  it('Idempotency-Key: the same key and body give the same run; another body gives 409', async () => {
    const headers = { 'idempotency-key': `idem-${Date.now()}` };
    const first = await create({}, headers);
    const again = await create({}, headers);
    assert.equal(first.status, 200);
    assert.equal(again.status, 200);
    assert.equal(again.body.run_id, first.body.run_id);
    const other = await create({ input: 'something else' }, headers);
    assert.equal(other.status, 409);
    assert.deepEqual(other.body, { error: 'idempotency_key_reused' });
    const raceKey = `race-${Date.now()}`;
    const concurrent = await Promise.all(Array.from({ length: 10 }, () => create({ input: 'race' }, { 'idempotency-key': raceKey })));
    assert.deepEqual([...new Set(concurrent.map((response) => response.status))], [200]);
    assert.equal(new Set(concurrent.map((response) => response.body.run_id)).size, 1);
  });

  it('lists runs newest first with a cursor, filtered by status', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create({ input: `list ${i}` })).body.run_id);
    for (const id of ids) await waitForRun(http, tenant.key, id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await http.get(`/api/v1/agent-runs?limit=2&status=succeeded${cursor ? `&cursor=${cursor}` : ''}`, { token: tenant.key });
      assert.equal(page.status, 200);
      assert.ok(page.body.data.length <= 2);
      for (const run of page.body.data) {
        assert.equal(run.status, 'succeeded');
        assert.deepEqual(Object.keys(run).sort(), RUN_FIELDS);
        seen.push(run.run_id);
      }
      cursor = page.body.next_cursor;
    } while (cursor);
    assert.equal(new Set(seen).size, seen.length, 'no run twice across pages');
    for (const id of ids) assert.ok(seen.includes(id));
    assert.deepEqual(seen.slice(0, 3), [...ids].reverse(), 'newest first');
  });

  it('openai/<model>: calls the configured OpenAI-compatible server with the instructions and input', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, {
      model: 'openai/gpt-4o-mini',
      instructions: 'Be terse.',
      temperature: 0.2,
      max_output_tokens: 50,
    });
    fake.enqueue({ content: 'Pylon is a backend for AI products.' });
    const created = await create({ agent_version_id: versionId, input: 'Define Pylon' });
    const { run } = await waitForRun(http, tenant.key, created.body.run_id);
    assert.equal(run.status, 'succeeded');
    assert.equal(run.output, 'Pylon is a backend for AI products.');
    const sent = fake.requests[fake.requests.length - 1]!.body;
    assert.equal(sent.model, 'gpt-4o-mini');
    assert.equal(sent.instructions, 'Be terse.');
    assert.deepEqual(sent.input, [{ type: 'message', role: 'user', content: 'Define Pylon' }]);
    assert.equal(sent.store, false, 'OpenAI keeps nothing: Pylon holds the conversation');
    assert.equal(sent.stream, true);
    assert.equal(sent.temperature, 0.2);
    assert.equal(sent.max_output_tokens, 50);
  });

  it('openai: function tools and the conversation history go as the Responses API expects; the run waits for the tool output', async () => {
    const lookupOrder = {
      type: 'function',
      name: 'lookup_order',
      description: 'Finds an order.',
      parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    };
    const versionId = await createVersion(http, tenant.key, tenant.agentId, {
      model: 'openai/gpt-4o-mini',
      instructions: 'Be terse.',
      tools: [lookupOrder],
    });
    const conversation = await http.post('/api/v1/conversations', { token: tenant.key, body: { org_id: tenant.orgId } });
    const turn = (input: string) =>
      http.post(`/api/v1/conversations/${conversation.body.conversation_id}/runs`, {
        token: tenant.key,
        body: { org_id: tenant.orgId, agent_version_id: versionId, input },
      });
    fake.enqueue({ content: 'Hello Ada.' });
    const first = await turn('I am Ada.');
    assert.equal((await waitForRun(http, tenant.key, first.body.run_id)).run.output, 'Hello Ada.');

    const before = fake.requests.length;
    fake.enqueue({ toolCalls: [{ id: 'call_7', name: 'lookup_order', arguments: '{"order_id":"42"}' }] }, { content: 'Order 42 shipped, Ada.' });
    const second = await turn('Where is order 42?');
    const action = await until(
      'the run to wait for the tool output',
      async () => {
        const response = await http.get(`/api/v1/agent-runs/${second.body.run_id}/required-action`, { token: tenant.key });
        return response.status === 200 && response;
      },
      { intervalMs: 50 },
    );
    assert.deepEqual(action.body.tool_calls, [{ id: 'call_7', name: 'lookup_order', arguments: '{"order_id":"42"}' }]);
    const submitted = await http.post(`/api/v1/agent-runs/${second.body.run_id}/tool-outputs`, {
      token: tenant.key,
      body: { tool_outputs: [{ tool_call_id: 'call_7', output: '{"status":"shipped"}' }] },
    });
    assert.equal(submitted.status, 200, submitted.text);
    const { run } = await waitForRun(http, tenant.key, second.body.run_id);
    assert.equal(run.output, 'Order 42 shipped, Ada.');

    const [asked, answered] = fake.requests.slice(before).map((request) => request.body);
    assert.deepEqual(asked.tools, [
      { type: 'function', name: 'lookup_order', description: 'Finds an order.', parameters: lookupOrder.parameters, strict: false },
    ]);
    const history = [
      { type: 'message', role: 'user', content: 'I am Ada.' },
      { type: 'message', role: 'assistant', content: 'Hello Ada.' },
      { type: 'message', role: 'user', content: 'Where is order 42?' },
    ];
    assert.deepEqual(asked.input, history);
    assert.deepEqual(answered.input, [
      ...history,
      { type: 'function_call', call_id: 'call_7', name: 'lookup_order', arguments: '{"order_id":"42"}' },
      { type: 'function_call_output', call_id: 'call_7', output: '{"status":"shipped"}' },
    ]);
  });

  it('openai: 429 and 500 are retried with backoff, then the run succeeds', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'openai/gpt-4o-mini' });
    const before = fake.requests.length;
    fake.enqueue({ status: 429 }, { status: 500 }, { content: 'third time lucky' });
    const created = await create({ agent_version_id: versionId });
    const { run } = await waitForRun(http, tenant.key, created.body.run_id, 60_000);
    assert.equal(run.status, 'succeeded');
    assert.equal(run.output, 'third time lucky');
    assert.equal(fake.requests.length - before, 3);
  });

  it('openai: a 400 is not retried; the run fails with a readable error', async () => {
    // Every request for this model gets the 400, as from a provider without it: an attempt Temporal retries
    // for a reason of its own (a heartbeat missed on a loaded machine) fails the same way.
    fake.answerModel('no-such-model', { status: 400, errorMessage: 'The model `no-such-model` does not exist' });
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'openai/no-such-model' });
    const asked = () => fake.requests.filter((request) => request.body.model === 'no-such-model').length;
    const created = await create({ agent_version_id: versionId });
    const { run } = await waitForRun(http, tenant.key, created.body.run_id);
    assert.equal(run.status, 'failed');
    assert.equal(run.output, null);
    assert.match(run.error, /OpenAI answered 400: .*no-such-model/);
    // The turn's last attempt ended on the 400 as not retryable, and every attempt asked once: none came after it.
    const { events } = await temporal.workflow.getHandle(agentRunWorkflowId(created.body.run_id)).fetchHistory();
    const turn = events?.find((event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'takeTurn');
    assert.ok(turn, 'the model turn was scheduled as an activity');
    const ofTurn = (attributes: { scheduledEventId?: Long | null } | null | undefined) =>
      Number(attributes?.scheduledEventId) === Number(turn.eventId);
    const started = events!.filter((event) => ofTurn(event.activityTaskStartedEventAttributes));
    const failed = events!.filter((event) => ofTurn(event.activityTaskFailedEventAttributes));
    assert.equal(started.length, 1);
    assert.equal(failed.length, 1);
    assert.equal(failed[0]!.activityTaskFailedEventAttributes!.retryState, proto.api.enums.v1.RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE);
    // An absence: no further request for the model comes after the attempt that ended on the 400.
    const attempts = Number(started[0]!.activityTaskStartedEventAttributes!.attempt);
    await holdsFor('one request per attempt, none after the last', 500, () => asked() === attempts);
    assert.equal(asked(), attempts);
  });

  it('a run longer than its version timeout ends failed', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'openai/slow', run_timeout_seconds: 2 });
    fake.enqueue({ delayMs: 8_000, content: 'too late' });
    const created = await create({ agent_version_id: versionId });
    const { run } = await waitForRun(http, tenant.key, created.body.run_id, 20_000);
    assert.equal(run.status, 'failed');
    assert.equal(run.error, 'run timed out after 2 seconds');
    assert.equal(run.output, null);
  });

  it('cancel aborts the model call under way (the server sees the connection close), and the run ends failed with "cancelled"', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'openai/slow' });
    fake.enqueue({ holdOpen: true, content: 'The first words, and then nothing more.' });
    const created = await create({ agent_version_id: versionId });
    // Running, and the model's first words are in the run's log: the call is under way.
    await until(
      'the model call to stream its first words',
      async () =>
        (await http.get(`/api/v1/agent-runs/${created.body.run_id}/events`, { token: tenant.key })).body.data?.some(
          (e: { type: string }) => e.type === 'output_delta',
        ) === true,
      { timeoutMs: 10_000, intervalMs: 50 },
    );
    const heldOpen = fake.requests.at(-1)!;
    assert.equal(heldOpen.closedAt, undefined, 'the response is still open');
    const cancelledAt = Date.now();
    // By its id in upper case: the same run, whose workflow the cancel must reach.
    const cancelled = await http.post(`/api/v1/agent-runs/${created.body.run_id.toUpperCase()}/cancel`, { token: tenant.key });
    assert.equal(cancelled.status, 202);
    const { run } = await waitForRun(http, tenant.key, created.body.run_id, 10_000);
    assert.equal(run.status, 'failed');
    assert.equal(run.error, 'cancelled');
    const closedAt = await until('the model call to be aborted', () => heldOpen.closedAt, { timeoutMs: 10_000, intervalMs: 50 });
    assert.ok(closedAt - cancelledAt < 6_000, `aborted ${closedAt - cancelledAt} ms after the cancel`);
    const handle = temporal.workflow.getHandle(agentRunWorkflowId(created.body.run_id));
    await assert.rejects(handle.result());
    assert.equal((await handle.describe()).status.name, 'CANCELLED');
    const events = (await http.get(`/api/v1/agent-runs/${created.body.run_id}/events`, { token: tenant.key })).body.data as Array<{
      type: string;
      data: unknown;
    }>;
    assert.deepEqual(events.at(-1), { ...events.at(-1), type: 'failed', data: run });

    // A second cancel answers the same final run; a run that finished otherwise cannot be cancelled.
    const again = await http.post(`/api/v1/agent-runs/${created.body.run_id}/cancel`, { token: tenant.key });
    assert.equal(again.status, 202);
    assert.deepEqual(again.body, run);
    const finished = await create({});
    await waitForRun(http, tenant.key, finished.body.run_id); // a precondition, not a promise of speed: the default timeout
    const late = await http.post(`/api/v1/agent-runs/${finished.body.run_id}/cancel`, { token: tenant.key });
    assert.equal(late.status, 409);
    assert.deepEqual(late.body, { error: 'run_not_cancellable' });
  });
});
