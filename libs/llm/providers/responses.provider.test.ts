import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeOpenAi } from '../../../test/support/fake-openai';
import { LlmRequestRejectedError, LlmUnavailableError } from '../llm-errors';
import type { LlmRequest } from '../llm-provider';
import { llmRequest } from '../../../test/support/llm-request';
import { ResponsesProvider } from './responses.provider';

function request(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return llmRequest('gpt-5-mini', {
    history: [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.' },
    ],
    ...overrides,
  });
}

const LOOKUP = { name: 'lookup_order', description: 'Finds an order', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } };

/** An endpoint that speaks the Responses API, at its HTTP boundary: the official SDK against a local server of that wire format. */
describe('ResponsesProvider', () => {
  let fake: FakeOpenAi;
  let provider: ResponsesProvider;

  before(async () => {
    fake = await FakeOpenAi.start();
    provider = new ResponsesProvider({
      name: 'edge',
      vendor: 'edge',
      baseUrl: fake.baseUrl,
      apiKey: 'edge-key',
      apiKeyVariable: 'EDGE_KEY',
      timeoutMs: 5_000,
    });
  });
  after(async () => fake?.stop());

  it('streams output_text deltas, keeps nothing on the server (store: false), and counts tokens from response.completed', async () => {
    fake.enqueue({ content: 'Order 7 shipped.', usage: { prompt_tokens: 44, completion_tokens: 5, cached_tokens: 30, reasoning_tokens: 2 } });
    const deltas: string[] = [];
    const turn = await provider.generate(request({ onDelta: (text) => deltas.push(text), maxOutputTokens: 100 }));
    assert.deepEqual(turn, {
      kind: 'answer',
      text: 'Order 7 shipped.',
      usage: { inputTokens: 44, outputTokens: 5, countedBy: 'provider', cachedInputTokens: 30, reasoningTokens: 2 },
    });
    assert.deepEqual(deltas, ['Order ', '7 ', 'shipped.']);
    const sent = fake.requests.at(-1)!;
    assert.equal(sent.authorization, 'Bearer edge-key');
    assert.deepEqual(
      { instructions: sent.body.instructions, store: sent.body.store, stream: sent.body.stream, max_output_tokens: sent.body.max_output_tokens },
      { instructions: 'Answer briefly.', store: false, stream: true, max_output_tokens: 100 },
    );
    assert.deepEqual(sent.body.input, [
      { type: 'message', role: 'user', content: 'Hi' },
      { type: 'message', role: 'assistant', content: 'Hello.' },
      { type: 'message', role: 'user', content: 'Where is order 7?' },
    ]);
  });

  it('takes two parallel function calls from their output items, and sends function_call and function_call_output items back', async () => {
    fake.enqueue({
      toolCalls: [
        { id: 'call_1', name: 'lookup_order', arguments: '{"order_id":"7"}' },
        { id: 'call_2', name: 'lookup_order', arguments: '{"order_id":"8"}' },
      ],
    });
    const turn = await provider.generate(request({ tools: [LOOKUP] }));
    assert.deepEqual(turn.kind === 'tool_calls' && turn.calls, [
      { id: 'call_1', name: 'lookup_order', arguments: '{"order_id":"7"}' },
      { id: 'call_2', name: 'lookup_order', arguments: '{"order_id":"8"}' },
    ]);
    assert.deepEqual(fake.requests.at(-1)!.body.tools, [{ type: 'function', ...LOOKUP, strict: false }]);
    fake.enqueue({ content: 'Both shipped.' });
    await provider.generate(
      request({
        tools: [LOOKUP],
        transcript: [
          { role: 'assistant', toolCalls: turn.kind === 'tool_calls' ? turn.calls : [] },
          { role: 'tool', toolCallId: 'call_1', content: 'shipped' },
          { role: 'tool', toolCallId: 'call_2', content: 'shipped too' },
        ],
      }),
    );
    assert.deepEqual(fake.requests.at(-1)!.body.input.slice(3), [
      { type: 'function_call', call_id: 'call_1', name: 'lookup_order', arguments: '{"order_id":"7"}' },
      { type: 'function_call', call_id: 'call_2', name: 'lookup_order', arguments: '{"order_id":"8"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'shipped' },
      { type: 'function_call_output', call_id: 'call_2', output: 'shipped too' },
    ]);
  });

  it('asks a structured answer natively (text.format json_schema)', async () => {
    const schema = { type: 'object', properties: { status: { type: 'string' } }, required: ['status'], additionalProperties: false };
    fake.enqueue({ content: '{"status":"shipped"}' });
    await provider.generate(request({ responseFormat: { type: 'json_schema', name: 'order', schema, strict: true } }));
    assert.deepEqual(fake.requests.at(-1)!.body.text, { format: { type: 'json_schema', name: 'order', schema, strict: true } });
  });

  it('refuses for good on 400 and 401, retries 429 and 500, and a cancel mid-stream closes the connection', async () => {
    const failure = async (status: number) => {
      fake.enqueue({ status });
      return provider.generate(request()).catch((error: unknown) => error);
    };
    assert.ok((await failure(400)) instanceof LlmRequestRejectedError);
    assert.ok((await failure(401)) instanceof LlmRequestRejectedError);
    assert.ok((await failure(429)) instanceof LlmUnavailableError);
    assert.ok((await failure(500)) instanceof LlmUnavailableError);
    fake.enqueue({ content: 'Thinking forever', holdOpen: true });
    const controller = new AbortController();
    const error = await provider
      .generate(request({ signal: controller.signal, onDelta: () => controller.abort() }))
      .catch((failed: unknown) => failed);
    assert.ok(!(error instanceof LlmUnavailableError) && !(error instanceof LlmRequestRejectedError), `a cancel, not a failure: ${error}`);
    const sent = fake.requests.at(-1)!;
    for (let i = 0; i < 50 && sent.closedAt === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(sent.closedAt, 'the held stream was closed by the client');
  });

  it("an organisation's own key goes out instead of the operator's; checkKey lists models on it, and a key the server refuses is refused for good", async () => {
    const own = 'sk-own-1a2b3c4d5e6f';
    fake.acceptedKeys = new Set([own]);
    try {
      await provider.generate(request({ apiKey: own }));
      assert.equal(fake.requests.at(-1)!.authorization, `Bearer ${own}`);
      await provider.checkKey(own);
      assert.equal(fake.modelListings.at(-1)!.authorization, `Bearer ${own}`);
      await assert.rejects(provider.checkKey('sk-revoked'), (error: Error) => error instanceof LlmRequestRejectedError && /401/.test(error.message));
    } finally {
      fake.acceptedKeys = null;
    }
  });

  it("counts a request's input tokens with POST /responses/input_tokens: the instructions, input items and tools a turn sends", async () => {
    const tokens = await provider.countInputTokens(request({ tools: [LOOKUP] }));
    const counted = fake.tokenCounts.at(-1)!.body;
    assert.equal(tokens, Math.ceil(JSON.stringify([counted.instructions, counted.input, counted.tools]).length / 4));
    assert.equal(counted.model, 'gpt-5-mini');
    assert.equal(counted.input.length, 3, 'the history and the input');
    assert.equal(counted.tools[0].name, 'lookup_order');
    assert.equal(counted.stream, undefined);
  });
});
