import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeAnthropic, keyOf } from '../support/fake-anthropic';
import { FakeGemini } from '../support/fake-gemini';
import { FakeOpenAi } from '../support/fake-openai';
import { Http } from '../support/http';
import { Stack } from '../support/stack';
import { createVersion, createTenant, waitForRun, type Tenant } from '../support/tenant';
import { until } from '../support/wait';

const ANTHROPIC_KEY = 'sk-ant-e2e-5a1f9c3d7e';
const COMPAT_KEY = 'compat-e2e-8b2e4f6a0c';
const GOOGLE_KEY = 'AIza-e2e-3c9d1e7f5b';

const LOOKUP_ORDER = {
  type: 'function',
  name: 'lookup_order',
  description: 'Finds an order by its id.',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
};

/** Runs on Anthropic and on an OpenAI-compatible endpoint named in MODEL_PROVIDERS, through the whole stack, each provider a local server speaking its wire format. */
describe('model providers', () => {
  let anthropic: FakeAnthropic;
  let compat: FakeOpenAi;
  let gemini: FakeGemini;
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;

  before(async () => {
    [anthropic, compat, gemini] = await Promise.all([FakeAnthropic.start(), FakeOpenAi.start(), FakeGemini.start()]);
    stack = await Stack.start({
      env: {
        ANTHROPIC_API_KEY: ANTHROPIC_KEY,
        ANTHROPIC_BASE_URL: anthropic.baseUrl,
        MODEL_PROVIDERS: JSON.stringify([
          { name: 'compat', base_url: compat.baseUrl, api_key_env: 'COMPAT_API_KEY' },
          { name: 'edge', base_url: compat.baseUrl, api: 'responses' },
        ]),
        COMPAT_API_KEY: COMPAT_KEY,
        GOOGLE_API_KEY: GOOGLE_KEY,
        GOOGLE_BASE_URL: gemini.baseUrl,
        LLM_HEARTBEAT_TIMEOUT_SECONDS: '10',
      },
    });
    http = new Http(stack.url);
    tenant = await createTenant(http);
  });
  after(async () => {
    await stack?.stop();
    await Promise.all([anthropic?.close(), compat?.stop(), gemini?.close()]);
  });

  const run = async (versionId: string, input: string) => {
    const created = await http.post('/api/v1/agent-runs', { token: tenant.key, body: { org_id: tenant.orgId, agent_version_id: versionId, input } });
    assert.equal(created.status, 200, created.text);
    return created.body.run_id as string;
  };
  const events = async (runId: string) =>
    (await http.get(`/api/v1/agent-runs/${runId}/events`, { token: tenant.key })).body.data as Array<{ type: string; data: any }>;

  it('GET /api/v1/models lists anthropic and the named endpoint as configured', async () => {
    const models = await http.get('/api/v1/models', { token: tenant.key });
    assert.deepEqual(
      models.body.data.map(({ provider, configured }: { provider: string; configured: boolean }) => [provider, configured]),
      [
        ['local', true],
        ['openai', false],
        ['anthropic', true],
        ['google', true],
        ['compat', true],
        ['edge', true],
      ],
    );
  });

  it("a Claude run makes two parallel function calls, waits for their outputs, streams its answer and records Anthropic's token counts", async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, {
      model: 'anthropic/claude-sonnet-4-5',
      instructions: 'Help with orders.',
      tools: [LOOKUP_ORDER],
    });
    anthropic.enqueue(
      {
        toolUses: [
          { id: 'toolu_a', name: 'lookup_order', inputPieces: ['{"order_id":', '"41"}'] },
          { id: 'toolu_b', name: 'lookup_order', inputPieces: ['{"order_id":"42"}'] },
        ],
        usage: { input_tokens: 50, output_tokens: 20 },
      },
      { text: ['Order 41 shipped; ', 'order 42 is lost.'], usage: { input_tokens: 90, output_tokens: 12 } },
    );
    const runId = await run(versionId, 'Where are orders 41 and 42?');
    const action = await until('the required action', async () => {
      const response = await http.get(`/api/v1/agent-runs/${runId}/required-action`, { token: tenant.key });
      return response.status === 200 ? response.body : undefined;
    });
    assert.deepEqual(
      action.tool_calls.map((call: { id: string; arguments: string }) => [call.id, JSON.parse(call.arguments)]),
      [
        ['toolu_a', { order_id: '41' }],
        ['toolu_b', { order_id: '42' }],
      ],
    );
    const answered = await http.post(`/api/v1/agent-runs/${runId}/tool-outputs`, {
      token: tenant.key,
      body: {
        tool_outputs: [
          { tool_call_id: 'toolu_a', output: 'shipped' },
          { tool_call_id: 'toolu_b', output: 'lost' },
        ],
      },
    });
    assert.equal(answered.status, 200, answered.text);
    const { run: finished } = await waitForRun(http, tenant.key, runId);
    assert.equal(finished.status, 'succeeded', finished.error);
    assert.equal(finished.output, 'Order 41 shipped; order 42 is lost.');
    const log = await events(runId);
    assert.deepEqual(
      log
        .filter((event) => event.type === 'output_delta')
        .map((event) => event.data.text)
        .join(''),
      'Order 41 shipped; order 42 is lost.',
    );
    const second = anthropic.requests.at(-1)!.body;
    assert.deepEqual(second.messages.at(-1), {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_a', content: 'shipped' },
        { type: 'tool_result', tool_use_id: 'toolu_b', content: 'lost' },
      ],
    });
    const usage = await http.get(`/api/v1/agent-runs/${runId}/usage`, { token: tenant.key });
    assert.equal(usage.status, 200, usage.text);
    assert.deepEqual(
      usage.body.turns.map((turn: { model: string; input_tokens: number; output_tokens: number }) => [
        turn.model,
        turn.input_tokens,
        turn.output_tokens,
      ]),
      [
        ['anthropic/claude-sonnet-4-5', 50, 20],
        ['anthropic/claude-sonnet-4-5', 90, 12],
      ],
    );
  });

  it('Anthropic overloaded (529, Retry-After 1): the turn is retried after it, and the run answers', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'anthropic/claude-haiku-4-5', instructions: 'Answer.' });
    const before = anthropic.requests.length;
    anthropic.enqueue({ status: 529, errorType: 'overloaded_error', retryAfter: '1' }, { text: ['Back.'] });
    const started = Date.now();
    const { run: finished } = await waitForRun(http, tenant.key, await run(versionId, 'hello'));
    assert.equal(finished.status, 'succeeded', finished.error);
    assert.equal(finished.output, 'Back.');
    const attempts = anthropic.requests.slice(before);
    assert.equal(attempts.length, 2);
    assert.ok(Date.now() - started >= 1_000, 'the retry waited for Retry-After');
  });

  it("a refusal (400) fails the run with the provider's reason and is not retried", async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'anthropic/no-such-model', instructions: 'Answer.' });
    const before = anthropic.requests.length;
    anthropic.enqueue({ status: 400, errorType: 'invalid_request_error' });
    const { run: finished } = await waitForRun(http, tenant.key, await run(versionId, 'hello'));
    assert.equal(finished.status, 'failed');
    assert.match(finished.error, /Anthropic answered 400/);
    assert.equal(anthropic.requests.length - before, 1);
  });

  it('a fallback: Anthropic overloaded (529) past its retries, the turn goes to the next model; the events say so and the usage names the model that answered', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, {
      model: 'anthropic/claude-sonnet-4-5',
      fallback_models: ['compat/meta-llama/Llama-3.3-70B'],
      instructions: 'Answer.',
    });
    const version = await http.get(`/api/v1/agent-versions/${versionId}`, { token: tenant.key });
    assert.deepEqual(version.body.fallback_models, ['compat/meta-llama/Llama-3.3-70B']);
    const overloaded = { status: 529, errorType: 'overloaded_error', retryAfter: '1' };
    anthropic.enqueue(overloaded, overloaded, overloaded);
    const before = { anthropic: anthropic.requests.length, compat: compat.requests.length };
    compat.enqueue({ content: 'Answered by the fallback.' });
    const runId = await run(versionId, 'hello');
    const { run: finished } = await waitForRun(http, tenant.key, runId);
    assert.equal(finished.status, 'succeeded', finished.error);
    assert.equal(finished.output, 'Answered by the fallback.');
    assert.equal(anthropic.requests.length - before.anthropic, 3, 'Anthropic was tried three times');
    assert.equal(compat.requests.length - before.compat, 1);
    const fallbacks = (await events(runId)).filter((event) => event.type === 'model_fallback');
    assert.equal(fallbacks.length, 1);
    assert.equal(fallbacks[0]!.data.from, 'anthropic/claude-sonnet-4-5');
    assert.equal(fallbacks[0]!.data.to, 'compat/meta-llama/Llama-3.3-70B');
    assert.match(fallbacks[0]!.data.reason, /Anthropic answered 529/);
    const usage = await http.get(`/api/v1/agent-runs/${runId}/usage`, { token: tenant.key });
    assert.deepEqual(
      usage.body.turns.map((turn: { model: string }) => turn.model),
      ['compat/meta-llama/Llama-3.3-70B'],
    );
  });

  it('a refusal (400) never falls back; a version names at most three fallbacks, each once, each a model the organisation can run', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, {
      model: 'anthropic/claude-sonnet-4-5',
      fallback_models: ['compat/meta-llama/Llama-3.3-70B'],
      instructions: 'Answer.',
    });
    anthropic.enqueue({ status: 400, errorType: 'invalid_request_error' });
    const before = compat.requests.length;
    const runId = await run(versionId, 'hello');
    const { run: finished } = await waitForRun(http, tenant.key, runId);
    assert.equal(finished.status, 'failed');
    assert.match(finished.error, /Anthropic answered 400/);
    assert.equal(compat.requests.length, before, 'the fallback was not asked');
    assert.equal((await events(runId)).filter((event) => event.type === 'model_fallback').length, 0);

    const refused = async (fallbacks: unknown, detail: RegExp) => {
      const answer = await http.post(`/api/v1/agents/${tenant.agentId}/versions`, {
        token: tenant.key,
        body: { model: 'anthropic/claude-sonnet-4-5', instructions: 'Answer.', fallback_models: fallbacks },
      });
      assert.equal(answer.status, 400, JSON.stringify(fallbacks));
      assert.deepEqual(answer.body, { error: 'invalid_request' });
      assert.match(answer.headers.get('error-detail') ?? '', detail);
    };
    await refused(['compat/a', 'compat/b', 'compat/c', 'compat/d'], /fallback_models/);
    await refused(['compat/a', 'compat/a'], /fallback_models\.1: compat\/a is named twice/);
    await refused(['anthropic/claude-sonnet-4-5'], /fallback_models\.0: .* is named twice/);
    await refused(['openai/gpt-4o-mini'], /fallback_models\.0: the organisation has no openai key/);
    await refused(['not a model'], /fallback_models/);
  });

  it("a Gemini run calls a function, gets its output and streams its answer, with Gemini's token counts", async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, {
      model: 'google/gemini-2.5-flash',
      instructions: 'Help with orders.',
      tools: [LOOKUP_ORDER],
    });
    gemini.enqueue(
      { functionCalls: [{ id: 'fc_1', name: 'lookup_order', args: { order_id: '7' } }], usage: { promptTokenCount: 33, candidatesTokenCount: 8 } },
      { text: ['Order 7 ', 'shipped.'], usage: { promptTokenCount: 61, candidatesTokenCount: 4 } },
    );
    const runId = await run(versionId, 'Where is order 7?');
    await until(
      'the required action',
      async () => (await http.get(`/api/v1/agent-runs/${runId}/required-action`, { token: tenant.key })).status === 200,
    );
    const answered = await http.post(`/api/v1/agent-runs/${runId}/tool-outputs`, {
      token: tenant.key,
      body: { tool_outputs: [{ tool_call_id: 'fc_1', output: 'shipped' }] },
    });
    assert.equal(answered.status, 200, answered.text);
    const { run: finished } = await waitForRun(http, tenant.key, runId);
    assert.equal(finished.status, 'succeeded', finished.error);
    assert.equal(finished.output, 'Order 7 shipped.');
    assert.deepEqual(gemini.requests.at(-1)!.body.contents.at(-1), {
      role: 'user',
      parts: [{ functionResponse: { id: 'fc_1', name: 'lookup_order', response: { output: 'shipped' } } }],
    });
    assert.ok(gemini.requests.every((request) => request.headers['x-goog-api-key'] === GOOGLE_KEY));
    const usage = await http.get(`/api/v1/agent-runs/${runId}/usage`, { token: tenant.key });
    assert.deepEqual(
      usage.body.turns.map((turn: { input_tokens: number; output_tokens: number }) => [turn.input_tokens, turn.output_tokens]),
      [
        [33, 8],
        [61, 4],
      ],
    );
  });

  it('a run on an endpoint that speaks the Responses API streams its answer from response.output_text.delta events', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'edge/gpt-5-mini', instructions: 'Answer.' });
    compat.enqueue({ content: 'answered over the Responses API', usage: { prompt_tokens: 12, completion_tokens: 5 } });
    const runId = await run(versionId, 'hello');
    const { run: finished } = await waitForRun(http, tenant.key, runId);
    assert.equal(finished.status, 'succeeded', finished.error);
    assert.equal(finished.output, 'answered over the Responses API');
    const sent = compat.requests.at(-1)!.body;
    assert.deepEqual([sent.model, sent.store, sent.input.at(-1)], ['gpt-5-mini', false, { type: 'message', role: 'user', content: 'hello' }]);
    const log = await events(runId);
    assert.equal(
      log
        .filter((event) => event.type === 'output_delta')
        .map((event) => event.data.text)
        .join(''),
      'answered over the Responses API',
    );
  });

  it("a run on <name>/<model> reaches the named endpoint with the model's own name and that endpoint's key; no key is in any log line", async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'compat/meta-llama/Llama-3.3-70B', instructions: 'Answer.' });
    compat.enqueue({ content: 'from the compatible server' });
    const { run: finished } = await waitForRun(http, tenant.key, await run(versionId, 'hello'));
    assert.equal(finished.status, 'succeeded', finished.error);
    assert.equal(finished.output, 'from the compatible server');
    assert.equal(compat.requests.at(-1)!.body.model, 'meta-llama/Llama-3.3-70B');
    assert.equal(compat.requests.at(-1)!.authorization, `Bearer ${COMPAT_KEY}`);
    assert.ok(anthropic.requests.every((request) => keyOf(request.headers) === ANTHROPIC_KEY));
    const logs = `${stack.api.log()}\n${stack.worker.log()}`;
    for (const key of [ANTHROPIC_KEY, COMPAT_KEY, GOOGLE_KEY]) assert.ok(!logs.includes(key), `${key} is in a log line`);
  });
});
