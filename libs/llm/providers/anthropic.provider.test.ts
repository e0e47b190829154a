import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '@pylon/config';
import { FakeAnthropic, keyOf } from '../../../test/support/fake-anthropic';
import { LlmRequestRejectedError, LlmUnavailableError } from '../llm-errors';
import type { LlmRequest } from '../llm-provider';
import { llmRequest } from '../../../test/support/llm-request';
import { AnthropicLlmProvider } from './anthropic.provider';

const KEY = 'sk-ant-test-0123456789';

function request(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return llmRequest('claude-sonnet-4-5', overrides);
}

const LOOKUP = { name: 'lookup_order', description: 'Finds an order', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } };
const MCP_TOOL = { name: 'shop.track', description: 'Tracks a parcel', parameters: { type: 'object', properties: {} } };

/** The Anthropic provider at its HTTP boundary: the official SDK against a local server speaking the Messages API's wire format. */
describe('AnthropicLlmProvider', () => {
  let fake: FakeAnthropic;
  let provider: AnthropicLlmProvider;

  before(async () => {
    fake = await FakeAnthropic.start();
    provider = new AnthropicLlmProvider(loadConfig({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.baseUrl, LLM_TIMEOUT_MS: '5000' }));
  });
  after(async () => fake?.close());

  it('streams the text to onDelta in order and counts the tokens as Anthropic reports them, cached input and thinking included', async () => {
    fake.enqueue({
      text: ['Order 7 ', 'shipped', '.'],
      usage: { input_tokens: 30, output_tokens: 4, cache_read_input_tokens: 100, thinking_tokens: 3 },
    });
    const deltas: string[] = [];
    const turn = await provider.generate(request({ onDelta: (text) => deltas.push(text), temperature: 0.2, maxOutputTokens: 300 }));
    assert.deepEqual(turn, {
      kind: 'answer',
      text: 'Order 7 shipped.',
      usage: { inputTokens: 130, outputTokens: 4, countedBy: 'provider', cachedInputTokens: 100, reasoningTokens: 3 },
    });
    assert.deepEqual(deltas, ['Order 7 ', 'shipped', '.']);
    const sent = fake.requests.at(-1)!;
    assert.equal(keyOf(sent.headers), KEY, "the organisation's key reached Anthropic");
    assert.ok(sent.headers['anthropic-version'], 'the SDK names the API version');
    assert.deepEqual(
      {
        model: sent.body.model,
        system: sent.body.system,
        stream: sent.body.stream,
        max_tokens: sent.body.max_tokens,
        temperature: sent.body.temperature,
      },
      { model: 'claude-sonnet-4-5', system: 'Answer briefly.', stream: true, max_tokens: 300, temperature: 0.2 },
    );
    assert.deepEqual(sent.body.messages, [{ role: 'user', content: [{ type: 'text', text: 'Where is order 7?' }] }]);
  });

  it('gathers two parallel tool calls from their input_json_delta pieces, and sends their results back in one user turn', async () => {
    fake.enqueue({
      text: ['Looking.'],
      toolUses: [
        { id: 'toolu_1', name: 'lookup_order', inputPieces: ['{"order', '_id": "7"}'] },
        { id: 'toolu_2', name: 'shop__track', inputPieces: ['{}'] },
      ],
    });
    const turn = await provider.generate(request({ tools: [LOOKUP, MCP_TOOL] }));
    assert.equal(turn.kind, 'tool_calls');
    assert.deepEqual(turn.kind === 'tool_calls' && turn.calls, [
      { id: 'toolu_1', name: 'lookup_order', arguments: '{"order_id": "7"}' },
      { id: 'toolu_2', name: 'shop.track', arguments: '{}' },
    ]);
    assert.equal(turn.kind === 'tool_calls' && turn.content, 'Looking.');
    assert.deepEqual(
      fake.requests.at(-1)!.body.tools.map((tool: { name: string; input_schema: unknown }) => [tool.name, tool.input_schema]),
      [
        ['lookup_order', LOOKUP.parameters],
        ['shop__track', MCP_TOOL.parameters],
      ],
      "an MCP tool's dotted name goes out in the form Anthropic takes",
    );

    fake.enqueue({ text: ['Shipped, in transit.'] });
    const calls = turn.kind === 'tool_calls' ? turn.calls : [];
    await provider.generate(
      request({
        tools: [LOOKUP, MCP_TOOL],
        transcript: [
          { role: 'assistant', toolCalls: calls, content: 'Looking.' },
          { role: 'tool', toolCallId: 'toolu_1', content: 'shipped' },
          { role: 'tool', toolCallId: 'toolu_2', content: 'in transit' },
        ],
      }),
    );
    assert.deepEqual(fake.requests.at(-1)!.body.messages, [
      { role: 'user', content: [{ type: 'text', text: 'Where is order 7?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'lookup_order', input: { order_id: '7' } },
          { type: 'tool_use', id: 'toolu_2', name: 'shop__track', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'shipped' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'in transit' },
        ],
      },
    ]);
  });

  it("asks a structured answer natively (output_config.format; Pylon still checks it and repairs it), and puts the repair turn's answer and fault in the messages", async () => {
    const responseFormat = {
      type: 'json_schema' as const,
      name: 'order',
      schema: { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] },
      strict: true,
    };
    fake.enqueue({ text: ['{"status": "shipped"}'] });
    const turn = await provider.generate(request({ responseFormat, repair: { answer: '{}', fault: '/ must have required property status' } }));
    assert.deepEqual(turn.kind === 'answer' && turn.text, '{"status": "shipped"}');
    const sent = fake.requests.at(-1)!.body;
    assert.equal(sent.system, 'Answer briefly.');
    assert.deepEqual(sent.output_config, { format: { type: 'json_schema', schema: responseFormat.schema } });
    assert.deepEqual(
      sent.messages.slice(1).map((message: { role: string; content: Array<{ text: string }> }) => [message.role, message.content[0]!.text]),
      [
        ['assistant', '{}'],
        [
          'user',
          'That answer does not match the JSON schema order: / must have required property status. Answer again with only JSON that matches the schema.',
        ],
      ],
    );
  });

  it('refuses for good on 400 and 401, and retries 429 (after its Retry-After), 500, 529 and an overload inside the stream', async () => {
    const failure = async (reply: Parameters<FakeAnthropic['enqueue']>[0]) => {
      fake.enqueue(reply);
      return provider.generate(request()).then(
        () => assert.fail('the turn succeeded'),
        (error: unknown) => error,
      );
    };
    const bad = await failure({ status: 400, errorType: 'invalid_request_error' });
    assert.ok(bad instanceof LlmRequestRejectedError);
    assert.match(bad.message, /^Anthropic answered 400: fake 400/);
    assert.ok((await failure({ status: 401, errorType: 'authentication_error' })) instanceof LlmRequestRejectedError);
    const limited = await failure({ status: 429, errorType: 'rate_limit_error', retryAfter: '3' });
    assert.ok(limited instanceof LlmUnavailableError);
    assert.equal(limited.retryAfterMs, 3_000);
    const broken = await failure({ status: 500 });
    assert.ok(broken instanceof LlmUnavailableError);
    assert.equal(broken.retryAfterMs, undefined);
    const overloaded = await failure({ status: 529, errorType: 'overloaded_error' });
    assert.ok(overloaded instanceof LlmUnavailableError);
    assert.match(overloaded.message, /^Anthropic answered 529/);
    assert.ok((await failure({ text: ['Half'], errorEventAfter: 4, errorType: 'overloaded_error' })) instanceof LlmUnavailableError);
  });

  it('a stream cut mid-way is worth retrying, not an answer', async () => {
    fake.enqueue({ text: ['Half an ', 'answer'], cutAfter: 4 });
    const deltas: string[] = [];
    const error = await provider.generate(request({ onDelta: (text) => deltas.push(text) })).then(
      () => assert.fail('a cut stream answered'),
      (failure: unknown) => failure,
    );
    assert.ok(error instanceof LlmUnavailableError, String(error));
    assert.deepEqual(deltas, ['Half an ']);
  });

  it('a cancel mid-stream closes the connection to Anthropic at once', async () => {
    fake.enqueue({ text: ['Thinking', ' forever'], holdOpen: true });
    const controller = new AbortController();
    const turn = provider.generate(request({ signal: controller.signal, onDelta: () => controller.abort() }));
    await assert.rejects(turn, (error: Error) => {
      assert.ok(!(error instanceof LlmUnavailableError) && !(error instanceof LlmRequestRejectedError), `a cancel, not a failure: ${error}`);
      return true;
    });
    const sent = fake.requests.at(-1)!;
    for (let i = 0; i < 50 && sent.closedAt === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(sent.closedAt, 'the held stream was closed by the client');
  });

  it("an organisation's own key goes out instead of the operator's; checkKey lists models on it, and a key Anthropic refuses is refused for good", async () => {
    const own = 'sk-ant-own-9f8e7d6c5b';
    fake.acceptedKeys = new Set([own]);
    try {
      await provider.generate(request({ apiKey: own }));
      assert.equal(keyOf(fake.requests.at(-1)!.headers), own);
      await provider.checkKey(own);
      assert.equal(keyOf(fake.modelListings.at(-1)!.headers), own);
      await assert.rejects(
        provider.checkKey('sk-ant-revoked'),
        (error: Error) => error instanceof LlmRequestRejectedError && /401/.test(error.message),
      );
      await assert.rejects(provider.generate(request()), LlmRequestRejectedError, "the operator's key is not one it takes");
    } finally {
      fake.acceptedKeys = null;
    }
  });

  it("counts a request's input tokens with Anthropic's count_tokens: the same system prompt, messages and tools a turn sends, on the request's key", async () => {
    const own = 'sk-ant-own-counting';
    const asked = request({
      apiKey: own,
      tools: [LOOKUP],
      history: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello.' },
      ],
    });
    const tokens = await provider.countInputTokens(asked);
    const counted = fake.tokenCounts.at(-1)!.body;
    assert.equal(tokens, fake.countTokens(counted));
    assert.equal(counted.model, 'claude-sonnet-4-5');
    assert.equal(counted.system, 'Answer briefly.');
    assert.equal(counted.messages.length, 3);
    assert.deepEqual(
      counted.tools.map((tool: { name: string }) => tool.name),
      ['lookup_order'],
    );
    assert.equal(counted.max_tokens, undefined, 'a count generates nothing');
  });
});
