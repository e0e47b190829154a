import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { sql } from '../support/db';
import { Http, type HttpResponse } from '../support/http';
import { Stack } from '../support/stack';
import { createKey, createTenant, createVersion, waitForRun, type Tenant } from '../support/tenant';

const LOOKUP_ORDER = {
  type: 'function',
  name: 'lookup_order',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
};

function expectError(response: HttpResponse, status: number, code: string): void {
  assert.equal(response.status, status, response.text);
  assert.deepEqual(response.body, { error: code });
}

/** Conversations: turns that see the earlier ones, one at a time, in the order they were accepted. */
describe('conversations', () => {
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;
  let toolsVersion: string;

  const newConversation = async (metadata?: Record<string, unknown>) => {
    const created = await http.post('/api/v1/conversations', {
      token: tenant.key,
      body: { org_id: tenant.orgId, ...(metadata ? { metadata } : {}) },
    });
    assert.equal(created.status, 201, created.text);
    return created.body.conversation_id as string;
  };
  const turn = (conversationId: string, input: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    http.post(`/api/v1/conversations/${conversationId}/runs`, {
      token: tenant.key,
      headers,
      body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input, ...extra },
    });
  const items = async (conversationId: string) => {
    const all: any[] = [];
    let cursor: string | null = null;
    do {
      const page: HttpResponse = await http.get(`/api/v1/conversations/${conversationId}/items?limit=7${cursor ? `&cursor=${cursor}` : ''}`, {
        token: tenant.key,
      });
      assert.equal(page.status, 200, page.text);
      all.push(...page.body.data);
      cursor = page.body.next_cursor;
    } while (cursor);
    return all;
  };
  const waitForAction = async (runId: string) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const action = await http.get(`/api/v1/agent-runs/${runId}/required-action`, { token: tenant.key });
      if (action.status === 200) return action.body;
      assert.ok(Date.now() < deadline, 'the run never waited');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const eventTime = async (runId: string, types: string[]) => {
    const log = await http.get(`/api/v1/agent-runs/${runId}/events`, { token: tenant.key });
    const event = log.body.data.find((candidate: { type: string }) => types.includes(candidate.type));
    assert.ok(event, `run ${runId} has no ${types.join('/')} event`);
    return new Date(event.created_at).getTime();
  };

  before(async () => {
    stack = await Stack.start();
    http = new Http(stack.url);
    tenant = await createTenant(http);
    toolsVersion = await createVersion(http, tenant.key, tenant.agentId, { model: 'local/extractive', tools: [LOOKUP_ORDER] });
  });
  after(async () => stack?.stop());

  it('create, get, list newest first, delete; metadata kept exactly; scopes; other organisations see 404', async () => {
    const first = await newConversation({ user: 'u_1', constructor: { nested: [1, 'two'] } });
    const second = await newConversation();
    const got = await http.get(`/api/v1/conversations/${first}`, { token: tenant.key });
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(Object.keys(got.body).sort(), ['conversation_id', 'created_at', 'metadata', 'org_id']);
    assert.deepEqual(got.body.metadata, { user: 'u_1', constructor: { nested: [1, 'two'] } });
    const list = await http.get('/api/v1/conversations?limit=1', { token: tenant.key });
    assert.deepEqual(
      list.body.data.map((c: { conversation_id: string }) => c.conversation_id),
      [second],
    );
    const next = await http.get(`/api/v1/conversations?limit=1&cursor=${list.body.next_cursor}`, { token: tenant.key });
    assert.deepEqual(
      next.body.data.map((c: { conversation_id: string }) => c.conversation_id),
      [first],
    );

    const other = await createTenant(http);
    expectError(await http.get(`/api/v1/conversations/${first}`, { token: other.key }), 404, 'not_found');
    expectError(await http.get(`/api/v1/conversations/${first}/items`, { token: other.key }), 404, 'not_found');
    expectError(await http.delete(`/api/v1/conversations/${first}`, { token: other.key }), 404, 'not_found');
    expectError(
      await http.post(`/api/v1/conversations/${first}/runs`, {
        token: other.key,
        body: { org_id: other.orgId, agent_version_id: other.versionId, input: 'hi' },
      }),
      404,
      'not_found',
    );
    const reader = await createKey(http, tenant.orgId, ['runs:read']);
    expectError(await http.post('/api/v1/conversations', { token: reader, body: { org_id: tenant.orgId } }), 403, 'insufficient_scope');
    expectError(await http.post('/api/v1/conversations', { token: tenant.key, body: { org_id: tenant.orgId, title: 'x' } }), 400, 'invalid_request');
    expectError(
      await http.post('/api/v1/conversations', { token: tenant.key, body: { org_id: tenant.orgId, metadata: [] } }),
      400,
      'invalid_request',
    );
    expectError(await turn(second, 'hi', { if_busy: 'sometimes' }), 400, 'invalid_request');
    expectError(await http.get(`/api/v1/conversations/${first}/items?cursor=abc`, { token: tenant.key }), 400, 'invalid_request');
    assert.equal((await http.delete(`/api/v1/conversations/${second}`, { token: tenant.key })).status, 204);
    expectError(await http.get(`/api/v1/conversations/${second}`, { token: tenant.key }), 404, 'not_found');
  });

  it('two turns: the second sees the first (memory), and the items show every input and answer in order', async () => {
    const conversationId = await newConversation();
    const first = await turn(conversationId, 'My favourite colour is teal.');
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(Object.keys(first.body).sort(), ['created_at', 'run_id', 'status']);
    assert.equal((await waitForRun(http, tenant.key, first.body.run_id)).run.status, 'succeeded');
    const second = await turn(conversationId, 'What is my favourite colour?');
    const { run } = await waitForRun(http, tenant.key, second.body.run_id);
    assert.equal(run.status, 'succeeded', run.error);
    assert.match(run.output, /From this conversation:\n- My favourite colour is teal\./);
    const log = await http.get(`/api/v1/agent-runs/${second.body.run_id}/events`, { token: tenant.key });
    const history = log.body.data.find((event: { type: string }) => event.type === 'history');
    assert.deepEqual(history.data, { items: 2, omitted: 0, tokens_counted_by: 'estimate' });

    const all = await items(conversationId);
    assert.deepEqual(
      all.map((item) => [item.type, item.run_id]),
      [
        ['input', first.body.run_id],
        ['answer', first.body.run_id],
        ['input', second.body.run_id],
        ['answer', second.body.run_id],
      ],
    );
    assert.equal(all[3].text, run.output);
    assert.deepEqual(Object.keys(all[0]).sort(), ['arguments', 'call_id', 'created_at', 'item_id', 'name', 'output', 'run_id', 'text', 'type']);
  });

  it("a history longer than the model's context is folded into a summary, never the current input, and the log says how many items", async () => {
    const conversationId = await newConversation();
    const long = await turn(conversationId, `${'The archive holds many words. '.repeat(1_300)}`);
    assert.equal((await waitForRun(http, tenant.key, long.body.run_id)).run.status, 'succeeded');
    const next = await turn(conversationId, 'What does the archive hold?');
    const { run } = await waitForRun(http, tenant.key, next.body.run_id);
    assert.equal(run.status, 'succeeded', run.error);
    const log = await http.get(`/api/v1/agent-runs/${next.body.run_id}/events`, { token: tenant.key });
    // local/* keeps 8 000 tokens (four characters each): the 39 000-character turn no longer fits, so it is folded into a summary.
    assert.deepEqual(log.body.data.find((event: { type: string }) => event.type === 'history').data, {
      items: 0,
      omitted: 0,
      compacted: 2,
      tokens_counted_by: 'estimate',
    });
    assert.equal(run.input, 'What does the archive hold?');
    assert.match(run.output, /The archive holds many words\./, 'the summary kept what the turn said');
    const summary = (await items(conversationId)).find((item: { type: string }) => item.type === 'compaction');
    assert.equal(summary.text, '- The archive holds many words.');
  });

  it('a turn is an ordinary run: Idempotency-Key, GET, and a deleted conversation leaves its runs readable', async () => {
    const conversationId = await newConversation();
    const once = await turn(conversationId, 'Remember order 5.', {}, { 'idempotency-key': 'turn-once' });
    const again = await turn(conversationId, 'Remember order 5.', {}, { 'idempotency-key': 'turn-once' });
    assert.equal(again.body.run_id, once.body.run_id);
    expectError(await turn(conversationId, 'Something else.', {}, { 'idempotency-key': 'turn-once' }), 409, 'idempotency_key_reused');
    await waitForRun(http, tenant.key, once.body.run_id);
    assert.equal((await items(conversationId)).length, 2);
    assert.equal((await http.delete(`/api/v1/conversations/${conversationId}`, { token: tenant.key })).status, 204);
    expectError(await http.get(`/api/v1/conversations/${conversationId}/items`, { token: tenant.key }), 404, 'not_found');
    const run = await http.get(`/api/v1/agent-runs/${once.body.run_id}`, { token: tenant.key });
    assert.equal(run.status, 200);
    assert.equal(run.body.status, 'succeeded');
  });

  it('20 concurrent turns with enqueue run one at a time, in the order they were accepted', async () => {
    const conversationId = await newConversation();
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => turn(conversationId, `Fact number ${i}: the code word is w${i}.`)));
    for (const response of created) assert.equal(response.status, 200, response.text);
    const finished = await Promise.all(created.map((response) => waitForRun(http, tenant.key, response.body.run_id, 120_000)));
    for (const { run } of finished) assert.equal(run.status, 'succeeded', run.error);
    const all = await items(conversationId);
    // Read turn by turn: each input is followed by its own answer, though later inputs were accepted before earlier answers.
    assert.deepEqual(
      all.map((item) => item.type),
      Array.from({ length: 20 }, () => ['input', 'answer']).flat(),
    );
    const accepted = all.filter((item) => item.type === 'input').map((item) => item.run_id as string);
    assert.equal(accepted.length, 20);
    assert.deepEqual([...accepted].sort(), created.map((response) => response.body.run_id as string).sort());
    let previousEnd = 0;
    for (const runId of accepted) {
      const started = await eventTime(runId, ['running']);
      assert.ok(started >= previousEnd, `turn ${runId} started before the turn accepted before it ended`);
      previousEnd = await eventTime(runId, ['succeeded', 'failed']);
    }
    // Each turn saw every earlier one: the last recalls a fact of the first.
    const last = finished.find(({ run }) => run.run_id === accepted[19])!.run;
    const log = await http.get(`/api/v1/agent-runs/${last.run_id}/events`, { token: tenant.key });
    assert.deepEqual(log.body.data.find((event: { type: string }) => event.type === 'history').data, {
      items: 38,
      omitted: 0,
      tokens_counted_by: 'estimate',
    });
  });

  it('reject is 409 conversation_busy while a turn waits; interrupt cancels it and goes next; the tool round trip lands in the items', async () => {
    const conversationId = await newConversation();
    const waiting = await turn(conversationId, 'lookup_order for order 42', { agent_version_id: toolsVersion });
    const action = await waitForAction(waiting.body.run_id);
    expectError(await turn(conversationId, 'Are you there?', { if_busy: 'reject' }), 409, 'conversation_busy');
    const interrupting = await turn(conversationId, 'Never mind the order.', { if_busy: 'interrupt' });
    assert.equal(interrupting.status, 200, interrupting.text);
    const cancelled = await waitForRun(http, tenant.key, waiting.body.run_id, 15_000);
    assert.deepEqual([cancelled.run.status, cancelled.run.error], ['failed', 'cancelled']);
    assert.equal((await waitForRun(http, tenant.key, interrupting.body.run_id)).run.status, 'succeeded');

    const roundTrip = await turn(conversationId, 'lookup_order for order 43', { agent_version_id: toolsVersion, if_busy: 'reject' });
    assert.equal(roundTrip.status, 200, roundTrip.text);
    const pending = await waitForAction(roundTrip.body.run_id);
    const answered = await http.post(`/api/v1/agent-runs/${roundTrip.body.run_id}/tool-outputs`, {
      token: tenant.key,
      body: { tool_outputs: [{ tool_call_id: pending.tool_calls[0].id, output: '{"status":"delivered"}' }] },
    });
    assert.equal(answered.status, 200, answered.text);
    assert.equal((await waitForRun(http, tenant.key, roundTrip.body.run_id)).run.status, 'succeeded');
    const all = await items(conversationId);
    const ofRoundTrip = all.filter((item) => item.run_id === roundTrip.body.run_id);
    assert.deepEqual(
      ofRoundTrip.map((item) => item.type),
      ['input', 'tool_call', 'tool_output', 'answer'],
    );
    assert.equal(ofRoundTrip[1].call_id, pending.tool_calls[0].id);
    assert.equal(ofRoundTrip[1].name, 'lookup_order');
    assert.equal(ofRoundTrip[2].output, '{"status":"delivered"}');
    // The cancelled turn's call never got an output: its input and call stay in the items, and later turns leave the call out.
    assert.deepEqual(
      all.filter((item) => item.run_id === waiting.body.run_id).map((item) => item.type),
      ['input', 'tool_call'],
    );
    assert.equal(action.tool_calls[0].name, 'lookup_order');
  });

  it("a turn's tool calls and their items are written together: when the items fail, the retried turn logs its calls once, with them", async () => {
    const conversationId = await newConversation();
    // The first write of this conversation's tool_call items fails, as a worker that died between two statements would
    // leave it; a sequence counts the attempts, since a failed transaction keeps nothing else.
    const fault = `test_items_fault_${randomBytes(6).toString('hex')}`;
    await sql(`CREATE SEQUENCE ${fault}`);
    await sql(`CREATE FUNCTION ${fault}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF nextval('${fault}') = 1 THEN RAISE EXCEPTION 'the items write fails once'; END IF;
        RETURN NEW;
      END $$`);
    await sql(`CREATE TRIGGER ${fault} BEFORE INSERT ON conversation_items FOR EACH ROW
      WHEN (NEW.conversation_id = '${conversationId}' AND NEW.type = 'tool_call') EXECUTE FUNCTION ${fault}()`);
    try {
      const asked = await turn(conversationId, 'lookup_order for order 44', { agent_version_id: toolsVersion });
      assert.equal(asked.status, 200, asked.text);
      const pending = await waitForAction(asked.body.run_id);
      const [{ attempts }] = await sql<{ attempts: string }>(`SELECT last_value AS attempts FROM ${fault}`);
      assert.equal(Number(attempts), 2, 'the first write of the items failed, the second went through');
      const answered = await http.post(`/api/v1/agent-runs/${asked.body.run_id}/tool-outputs`, {
        token: tenant.key,
        body: { tool_outputs: [{ tool_call_id: pending.tool_calls[0].id, output: '{"status":"shipped"}' }] },
      });
      assert.equal(answered.status, 200, answered.text);
      assert.equal((await waitForRun(http, tenant.key, asked.body.run_id)).run.status, 'succeeded');

      const ofTurn = (await items(conversationId)).filter((item) => item.run_id === asked.body.run_id);
      assert.deepEqual(
        ofTurn.map((item) => item.type),
        ['input', 'tool_call', 'tool_output', 'answer'],
      );
      const log = await http.get(`/api/v1/agent-runs/${asked.body.run_id}/events`, { token: tenant.key });
      const calls = log.body.data.filter((event: { type: string }) => event.type === 'tool_call');
      assert.deepEqual(
        calls.map((event: { data: { call_id: string } }) => event.data.call_id),
        [pending.tool_calls[0].id],
        'the call is logged once, by the attempt that wrote its item',
      );
      assert.equal(ofTurn[1].call_id, pending.tool_calls[0].id);
    } finally {
      await sql(`DROP TRIGGER IF EXISTS ${fault} ON conversation_items`);
      await sql(`DROP FUNCTION IF EXISTS ${fault}()`);
      await sql(`DROP SEQUENCE IF EXISTS ${fault}`);
    }
  });
});
