import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
import { FakeOpenAi } from '../support/fake-openai';
import { Http } from '../support/http';
import { Stack } from '../support/stack';
import { createKey, createTenant, createVersion, type Tenant } from '../support/tenant';
import { until } from '../support/wait';

/** The order the Open Responses specification streams a one-message answer in. */
const MESSAGE_EVENTS = [
  'response.created',
  'response.in_progress',
  'response.output_item.added',
  'response.content_part.added',
  'response.output_text.delta',
  'response.output_text.done',
  'response.content_part.done',
  'response.output_item.done',
  'response.completed',
];

/** A function tool: the offline model calls it when the input names it (`lookup_order for order 42` → {"order_id":"42"}). */
const LOOKUP_ORDER = {
  type: 'function' as const,
  name: 'lookup_order',
  description: 'Finds an order by its id.',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
};

/**
 * `/v1/responses` as the official `openai` SDK uses it: each response is an ordinary Pylon run of an agent
 * version (found under the same id in Pylon's API), created and awaited, streamed as the specification's
 * semantic events, started in the background and retrieved, cancelled; and its errors in OpenAI's shape, which
 * the SDK maps to its error classes.
 */
describe('the Responses API, through the openai SDK', () => {
  let fake: FakeOpenAi;
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;
  let openai: OpenAI;

  before(async () => {
    fake = await FakeOpenAi.start();
    stack = await Stack.start({ env: { OPENAI_API_KEY: 'sk-operator', OPENAI_BASE_URL: fake.baseUrl } });
    http = new Http(stack.url);
    tenant = await createTenant(http);
    openai = new OpenAI({ apiKey: tenant.key, baseURL: `${stack.url}/v1`, maxRetries: 0 });
  });
  after(async () => {
    await stack?.stop();
    await fake?.stop();
  });

  it('responses.create answers the finished response; it is the run of that version, with its output and usage', async () => {
    const response = await openai.responses.create({ model: tenant.versionId, input: 'What does Pylon do?' });
    assert.equal(response.object, 'response');
    assert.equal(response.status, 'completed');
    assert.equal(response.model, tenant.versionId);
    const run = await http.get(`/api/v1/agent-runs/${response.id}`, { token: tenant.key });
    assert.equal(run.status, 200, run.text);
    assert.equal(run.body.status, 'succeeded');
    assert.equal(response.output_text, run.body.output, 'the SDK reads the run’s output from the message item');
    assert.equal(response.output[0]?.type, 'message');
    const usage = await http.get(`/api/v1/agent-runs/${response.id}/usage`, { token: tenant.key });
    assert.deepEqual(
      { input: response.usage?.input_tokens, output: response.usage?.output_tokens },
      { input: usage.body.total.input_tokens, output: usage.body.total.output_tokens },
    );
    assert.equal(response.usage?.total_tokens, usage.body.total.input_tokens + usage.body.total.output_tokens);
    assert.ok(Math.abs(response.created_at - Date.now() / 1000) < 120, 'created_at is in seconds');
  });

  it('a model named agent:<agent_id> is that agent’s latest version; user message items are the input', async () => {
    const latest = await createVersion(http, tenant.key, tenant.agentId, { model: 'local/echo' });
    const response = await openai.responses.create({
      model: `agent:${tenant.agentId}`,
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'echo this back' }] }],
    });
    assert.equal(response.model, latest);
    assert.match(response.output_text, /echo this back/);
  });

  it('responses.stream: the semantic events in order with sequence numbers from 0, and the final response', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'openai/gpt-4o-mini' });
    fake.enqueue({ content: 'Streamed in pieces.' });
    const stream = openai.responses.stream({ model: versionId, input: 'Say something.' });
    const events: Array<{ type: string; sequence_number: number; text?: string }> = [];
    let deltas = '';
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'response.output_text.delta') deltas += event.delta;
    }
    const final = await stream.finalResponse();
    assert.deepEqual(
      events.map((event) => event.sequence_number),
      events.map((_, index) => index),
    );
    assert.deepEqual([...new Set(events.map((event) => event.type))], MESSAGE_EVENTS, events.map((event) => event.type).join(', '));
    assert.equal(deltas, 'Streamed in pieces.');
    assert.equal(final.status, 'completed');
    assert.equal(final.output_text, 'Streamed in pieces.');
    assert.equal(events.find((event) => event.type === 'response.output_text.done')?.text, deltas);
  });

  it('background: answered at once, queued or in progress; retrieve follows it to completed; cancel ends another cancelled', async () => {
    const slow = await createVersion(http, tenant.key, tenant.agentId, { model: 'openai/gpt-4o-mini' });
    fake.defaultReply = { content: 'after a pause', delayMs: 1_500 };
    try {
      const started = await openai.responses.create({ model: slow, input: 'Take your time.', background: true });
      assert.ok(['queued', 'in_progress'].includes(started.status!), started.status);
      assert.deepEqual(started.output, []);
      const finished = await until('the background response completed', async () => {
        const now = await openai.responses.retrieve(started.id);
        return now.status === 'completed' && now;
      });
      assert.equal(finished.output_text, 'after a pause');

      const other = await openai.responses.create({ model: slow, input: 'Never mind.', background: true });
      const cancelled = await openai.responses.cancel(other.id);
      assert.equal(cancelled.status, 'cancelled');
      assert.equal((await openai.responses.retrieve(other.id)).status, 'cancelled');
      const run = await http.get(`/api/v1/agent-runs/${other.id}`, { token: tenant.key });
      assert.deepEqual([run.body.status, run.body.error], ['failed', 'cancelled']);
    } finally {
      fake.defaultReply = { content: 'fake completion' };
    }
  });

  it('a stream read again with retrieve(stream, starting_after) resumes it: the same events under the same sequence numbers; input_items lists the input', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'openai/gpt-4o-mini' });
    fake.enqueue({ content: 'One, two, three, four.' });
    const started = await openai.responses.create({ model: versionId, input: 'Count to four.', background: true });
    await until('the response completed', async () => (await openai.responses.retrieve(started.id)).status === 'completed');
    const read = async (startingAfter?: number) => {
      const events: Array<{ type: string; sequence_number: number }> = [];
      const stream = await openai.responses.retrieve(started.id, {
        stream: true,
        ...(startingAfter !== undefined && { starting_after: startingAfter }),
      });
      for await (const event of stream) events.push(event);
      return events;
    };
    const whole = await read();
    assert.deepEqual([...new Set(whole.map((event) => event.type))], MESSAGE_EVENTS);
    const cut = Math.floor(whole.length / 2);
    assert.deepEqual(await read(whole[cut]!.sequence_number), whole.slice(cut + 1), 'the rest, exactly as first sent');
    assert.deepEqual(await read(whole.at(-1)!.sequence_number), []);

    const inputs = await openai.responses.inputItems.list(started.id);
    assert.deepEqual(
      inputs.data.map((item) => (item.type === 'message' ? [item.role, item.content] : item.type)),
      [['user', [{ type: 'input_text', text: 'Count to four.' }]]],
    );
  });

  it('a function-call loop through previous_response_id: the calls come back completed, their outputs go on with the same run, also streamed', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'local/extractive', tools: [LOOKUP_ORDER] });
    const first = await openai.responses.create({ model: versionId, input: 'lookup_order for order 42' });
    assert.equal(first.status, 'completed');
    const [call] = first.output;
    assert.ok(call?.type === 'function_call', JSON.stringify(first.output));
    assert.deepEqual([call.name, JSON.parse(call.arguments)], ['lookup_order', { order_id: '42' }]);
    const second = await openai.responses.create({
      model: versionId,
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'Order 42 shipped on Monday.' }],
    });
    assert.equal(second.status, 'completed');
    assert.equal(second.id, first.id, 'the same run went on');
    const run = await http.get(`/api/v1/agent-runs/${first.id}`, { token: tenant.key });
    assert.equal(run.body.status, 'succeeded');
    assert.equal(second.output_text, run.body.output);
    const retried = await openai.responses.create({
      model: versionId,
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'Order 42 shipped on Monday.' }],
    });
    assert.deepEqual([retried.status, retried.output_text], ['completed', second.output_text], 'the same outputs again: the same answer');
    await assert.rejects(
      openai.responses.create({
        model: versionId,
        previous_response_id: first.id,
        input: [{ type: 'function_call_output', call_id: call.call_id, output: 'something else' }],
      }),
      (error: unknown) => error instanceof OpenAI.ConflictError && error.code === 'run_not_waiting',
      'an answer to a run that no longer waits',
    );

    // The same loop streamed: the call's arguments as events, then the rest of the run.
    const events: string[] = [];
    let calls: Array<{ call_id: string }> = [];
    let waiting = '';
    let responseId = '';
    for await (const event of openai.responses.stream({ model: versionId, input: 'lookup_order for order 7' })) {
      events.push(event.type);
      if (event.type === 'response.created') responseId = event.response.id;
      if (event.type === 'response.function_call_arguments.done') waiting = event.arguments;
      if (event.type === 'response.completed') calls = event.response.output.filter((item) => item.type === 'function_call');
    }
    assert.deepEqual(JSON.parse(waiting), { order_id: '7' });
    assert.equal(events.at(-1), 'response.completed');
    assert.ok(events.includes('response.output_item.added') && calls.length === 1, events.join(', '));
    const rest: string[] = [];
    const continued = openai.responses.stream({
      model: versionId,
      previous_response_id: responseId,
      input: [{ type: 'function_call_output', call_id: calls[0]!.call_id, output: 'Order 7 is on its way.' }],
    });
    for await (const event of continued) rest.push(event.type);
    assert.deepEqual(rest.slice(0, 2), ['response.created', 'response.in_progress']);
    assert.equal(rest.at(-1), 'response.completed');
    const final = await continued.finalResponse();
    assert.equal(final.status, 'completed');
    assert.equal(final.id, responseId);
    assert.ok(
      final.output.every((item) => item.type === 'message'),
      'the answer, not the calls again',
    );
  });

  it('chat.completions.create: the run’s answer as a chat.completion; streamed as chunks ending with the usage; tool calls as tool_calls', async () => {
    const completion = await openai.chat.completions.create({
      model: tenant.versionId,
      messages: [{ role: 'user', content: 'What does Pylon do?' }],
    });
    const run = await http.get(`/api/v1/agent-runs/${completion.id.replace(/^chatcmpl-(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5')}`, {
      token: tenant.key,
    });
    assert.equal(run.body.status, 'succeeded', 'the completion is a run');
    assert.equal(completion.object, 'chat.completion');
    assert.deepEqual([completion.choices[0]?.message.content, completion.choices[0]?.finish_reason], [run.body.output, 'stop']);
    assert.ok(completion.usage && completion.usage.total_tokens === completion.usage.prompt_tokens + completion.usage.completion_tokens);

    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'openai/gpt-4o-mini' });
    fake.enqueue({ content: 'Chunk by chunk.' });
    const stream = await openai.chat.completions.create({
      model: versionId,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Stream it.' }] }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.equal(chunks[0]?.choices[0]?.delta.role, 'assistant');
    assert.equal(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''), 'Chunk by chunk.');
    assert.equal(chunks.at(-2)?.choices[0]?.finish_reason, 'stop');
    assert.deepEqual(chunks.at(-1)?.choices, []);
    assert.ok(chunks.at(-1)?.usage && chunks.at(-1)!.usage!.total_tokens > 0, JSON.stringify(chunks.at(-1)));

    const tools = await createVersion(http, tenant.key, tenant.agentId, { model: 'local/extractive', tools: [LOOKUP_ORDER] });
    const called = await openai.chat.completions.create({ model: tools, messages: [{ role: 'user', content: 'lookup_order for order 9' }] });
    assert.equal(called.choices[0]?.finish_reason, 'tool_calls');
    const toolCall = called.choices[0]?.message.tool_calls?.[0];
    assert.ok(toolCall?.type === 'function');
    assert.deepEqual([toolCall.function.name, JSON.parse(toolCall.function.arguments)], ['lookup_order', { order_id: '9' }]);
    const streamedCalls: string[] = [];
    for await (const chunk of await openai.chat.completions.create({
      model: tools,
      messages: [{ role: 'user', content: 'lookup_order for order 10' }],
      stream: true,
    })) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) streamedCalls.push(call.function?.arguments ?? '');
      if (chunk.choices[0]?.finish_reason) streamedCalls.push(`finish:${chunk.choices[0].finish_reason}`);
    }
    assert.deepEqual(JSON.parse(streamedCalls.slice(0, -1).join('')), { order_id: '10' });
    assert.equal(streamedCalls.at(-1), 'finish:tool_calls');

    await assert.rejects(
      openai.chat.completions.create({ model: tenant.versionId, messages: [{ role: 'system', content: 'Be brief.' }] }),
      (error: unknown) => error instanceof OpenAI.BadRequestError && error.param === 'messages[0].role',
    );
    await assert.rejects(
      openai.chat.completions.create({ model: tenant.versionId, messages: [{ role: 'user', content: 'hi' }], temperature: 0 }),
      (error: unknown) => error instanceof OpenAI.BadRequestError && error.param === 'temperature',
    );
  });

  it('models.list: each agent as agent:<agent_id> and each agent version; models.retrieve reads one; another organisation’s is 404', async () => {
    const models = [];
    for await (const model of openai.models.list()) models.push(model);
    const ids = models.map((model) => model.id);
    assert.ok(ids.includes(`agent:${tenant.agentId}`) && ids.includes(tenant.versionId), ids.join(', '));
    assert.ok(models.every((model) => model.object === 'model' && model.owned_by === tenant.orgId && Number.isInteger(model.created)));
    assert.equal((await openai.models.retrieve(tenant.versionId)).id, tenant.versionId);
    assert.equal((await openai.models.retrieve(`agent:${tenant.agentId}`)).id, `agent:${tenant.agentId}`);
    const stranger = await createTenant(http);
    const theirs = new OpenAI({ apiKey: stranger.key, baseURL: `${stack.url}/v1`, maxRetries: 0 });
    await assert.rejects(theirs.models.retrieve(tenant.versionId), OpenAI.NotFoundError);
  });

  it('errors in OpenAI’s shape, as the SDK’s error classes: unknown model 404, a parameter refused by name 400, another organisation’s response 404, scope 403, no key 401', async () => {
    const refused = async (call: Promise<unknown>, errorClass: abstract new (...args: any[]) => InstanceType<typeof OpenAI.APIError>) => {
      const error = await call.then(
        () => assert.fail('the call succeeded'),
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof errorClass, `${String(error)} is a ${errorClass.name}`);
      return error as InstanceType<typeof OpenAI.APIError>;
    };
    const missing = await refused(openai.responses.create({ model: '00000000-0000-4000-8000-000000000000', input: 'hi' }), OpenAI.NotFoundError);
    assert.deepEqual([missing.code, missing.param, missing.type], ['model_not_found', 'model', 'invalid_request_error']);
    const unsupported = await refused(openai.responses.create({ model: tenant.versionId, input: 'hi', temperature: 0.2 }), OpenAI.BadRequestError);
    assert.deepEqual([unsupported.param, unsupported.code], ['temperature', 'invalid_request']);
    const unknown = await refused(
      openai.responses.create({
        model: tenant.versionId,
        input: 'hi',
        colour: 'blue',
      } as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming),
      OpenAI.BadRequestError,
    );
    assert.match(unknown.message, /Unknown parameter: 'colour'/);
    const badInput = await refused(
      openai.responses.create({ model: tenant.versionId, input: [{ role: 'assistant', content: 'hi' }] }),
      OpenAI.BadRequestError,
    );
    assert.equal(badInput.param, 'input[0].role');

    const mine = await openai.responses.create({ model: tenant.versionId, input: 'mine' });
    const stranger = await createTenant(http);
    const theirs = new OpenAI({ apiKey: stranger.key, baseURL: `${stack.url}/v1`, maxRetries: 0 });
    const hidden = await refused(theirs.responses.retrieve(mine.id), OpenAI.NotFoundError);
    assert.equal(hidden.type, 'invalid_request_error');
    await refused(theirs.responses.retrieve('resp_not_a_pylon_id'), OpenAI.NotFoundError);

    const reader = new OpenAI({ apiKey: await createKey(http, tenant.orgId, ['runs:read']), baseURL: `${stack.url}/v1`, maxRetries: 0 });
    const forbidden = await refused(reader.responses.create({ model: tenant.versionId, input: 'hi' }), OpenAI.PermissionDeniedError);
    assert.equal(forbidden.type, 'permission_error');
    assert.equal((await reader.responses.retrieve(mine.id)).id, mine.id, 'runs:read retrieves');
    const anonymous = new OpenAI({ apiKey: 'pyl_not_a_key', baseURL: `${stack.url}/v1`, maxRetries: 0 });
    await refused(anonymous.responses.retrieve(mine.id), OpenAI.AuthenticationError);

    const malformed = await fetch(`${stack.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
      body: '{"model": ',
    });
    assert.equal(malformed.status, 400);
    const body = (await malformed.json()) as { error: Record<string, unknown> };
    assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type']);
    assert.equal(body.error.type, 'invalid_request_error');
  });
});
