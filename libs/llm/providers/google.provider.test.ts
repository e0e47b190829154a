import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '@pylon/config';
import { FakeGemini } from '../../../test/support/fake-gemini';
import { LlmRequestRejectedError, LlmUnavailableError } from '../llm-errors';
import type { LlmRequest } from '../llm-provider';
import { llmRequest } from '../../../test/support/llm-request';
import { GoogleLlmProvider } from './google.provider';

const KEY = 'AIza-test-0123456789';

function request(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return llmRequest('gemini-2.5-flash', overrides);
}

const LOOKUP = { name: 'lookup_order', description: 'Finds an order', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } };
const MCP_TOOL = { name: 'shop.track', description: 'Tracks a parcel', parameters: { type: 'object', properties: {} } };

/** The Gemini provider at its HTTP boundary: the official SDK against a local server speaking streamGenerateContent. */
describe('GoogleLlmProvider', () => {
  let fake: FakeGemini;
  let provider: GoogleLlmProvider;

  before(async () => {
    fake = await FakeGemini.start();
    provider = new GoogleLlmProvider(loadConfig({ GOOGLE_API_KEY: KEY, GOOGLE_BASE_URL: fake.baseUrl, LLM_TIMEOUT_MS: '5000' }));
  });
  after(async () => fake?.close());

  it('streams the text to onDelta in order, with the key, the instructions and the settings, and counts tokens as Gemini reports them', async () => {
    fake.enqueue({ text: ['Order 7 ', 'shipped.'], usage: { promptTokenCount: 40, candidatesTokenCount: 5, thoughtsTokenCount: 11 } });
    const deltas: string[] = [];
    const turn = await provider.generate(request({ onDelta: (text) => deltas.push(text), temperature: 0.3, maxOutputTokens: 200 }));
    assert.deepEqual(turn, {
      kind: 'answer',
      text: 'Order 7 shipped.',
      usage: { inputTokens: 40, outputTokens: 16, countedBy: 'provider', cachedInputTokens: 0, reasoningTokens: 11 },
    });
    assert.deepEqual(deltas, ['Order 7 ', 'shipped.']);
    const sent = fake.requests.at(-1)!;
    assert.equal(sent.model, 'gemini-2.5-flash');
    assert.equal(sent.headers['x-goog-api-key'], KEY);
    assert.deepEqual(sent.body.contents, [{ role: 'user', parts: [{ text: 'Where is order 7?' }] }]);
    assert.deepEqual(sent.body.systemInstruction.parts, [{ text: 'Answer briefly.' }]);
    assert.deepEqual([sent.body.generationConfig.temperature, sent.body.generationConfig.maxOutputTokens], [0.3, 200]);
  });

  it('takes two parallel function calls (ids made for those Gemini leaves unnamed), and sends their results back as functionResponse parts', async () => {
    fake.enqueue({
      functionCalls: [
        { id: 'g1', name: 'lookup_order', args: { order_id: '7' } },
        { name: 'shop__track', args: {} },
      ],
    });
    const turn = await provider.generate(request({ tools: [LOOKUP, MCP_TOOL] }));
    assert.deepEqual(turn.kind === 'tool_calls' && turn.calls, [
      { id: 'g1', name: 'lookup_order', arguments: '{"order_id":"7"}' },
      { id: 'call_2', name: 'shop.track', arguments: '{}' },
    ]);
    assert.deepEqual(
      fake.requests.at(-1)!.body.tools[0].functionDeclarations.map((tool: { name: string }) => tool.name),
      ['lookup_order', 'shop__track'],
    );
    fake.enqueue({ text: ['Shipped.'] });
    await provider.generate(
      request({
        tools: [LOOKUP, MCP_TOOL],
        transcript: [
          { role: 'assistant', toolCalls: turn.kind === 'tool_calls' ? turn.calls : [] },
          { role: 'tool', toolCallId: 'g1', content: 'shipped' },
          { role: 'tool', toolCallId: 'call_2', content: 'in transit' },
        ],
      }),
    );
    assert.deepEqual(fake.requests.at(-1)!.body.contents.slice(1), [
      {
        role: 'model',
        parts: [
          { functionCall: { id: 'g1', name: 'lookup_order', args: { order_id: '7' } } },
          { functionCall: { id: 'call_2', name: 'shop__track', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'g1', name: 'lookup_order', response: { output: 'shipped' } } },
          { functionResponse: { id: 'call_2', name: 'shop__track', response: { output: 'in transit' } } },
        ],
      },
    ]);
  });

  it('asks a structured answer natively (responseJsonSchema, JSON)', async () => {
    const schema = { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] };
    fake.enqueue({ text: ['{"status":"shipped"}'] });
    const turn = await provider.generate(request({ responseFormat: { type: 'json_schema', name: 'order', schema, strict: true } }));
    assert.equal(turn.kind === 'answer' && turn.text, '{"status":"shipped"}');
    const config = fake.requests.at(-1)!.body.generationConfig;
    assert.deepEqual([config.responseMimeType, config.responseJsonSchema], ['application/json', schema]);
  });

  it('refuses for good on 400 and 403, and retries 429 (after its RetryInfo delay), 500 and 503', async () => {
    const failure = async (reply: Parameters<FakeGemini['enqueue']>[0]) => {
      fake.enqueue(reply);
      return provider.generate(request()).then(
        () => assert.fail('the turn succeeded'),
        (error: unknown) => error,
      );
    };
    const bad = await failure({ status: 400, statusName: 'INVALID_ARGUMENT' });
    assert.ok(bad instanceof LlmRequestRejectedError, String(bad));
    assert.match(bad.message, /^Gemini answered 400/);
    assert.ok((await failure({ status: 403, statusName: 'PERMISSION_DENIED' })) instanceof LlmRequestRejectedError);
    const limited = await failure({ status: 429, statusName: 'RESOURCE_EXHAUSTED', retryDelay: '7s' });
    assert.ok(limited instanceof LlmUnavailableError, String(limited));
    assert.equal(limited.retryAfterMs, 7_000);
    assert.ok((await failure({ status: 500 })) instanceof LlmUnavailableError);
    assert.ok((await failure({ status: 503, statusName: 'UNAVAILABLE' })) instanceof LlmUnavailableError);
  });

  it('a stream cut mid-way is worth retrying, and a cancel mid-stream closes the connection at once', async () => {
    fake.enqueue({ text: ['Half ', 'an answer'], cutAfter: 1 });
    assert.ok((await provider.generate(request()).catch((error: unknown) => error)) instanceof LlmUnavailableError);
    fake.enqueue({ text: ['Thinking', ' forever'], holdOpen: true });
    const controller = new AbortController();
    const error = await provider
      .generate(request({ signal: controller.signal, onDelta: () => controller.abort() }))
      .catch((failure: unknown) => failure);
    assert.ok(!(error instanceof LlmUnavailableError) && !(error instanceof LlmRequestRejectedError), `a cancel, not a failure: ${error}`);
    const sent = fake.requests.at(-1)!;
    for (let i = 0; i < 50 && sent.closedAt === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(sent.closedAt, 'the held stream was closed by the client');
  });

  it("an organisation's own key goes out instead of the operator's; checkKey lists models on it, and a key Gemini refuses is refused for good", async () => {
    const own = 'AIza-own-4d3c2b1a09';
    fake.acceptedKeys = new Set([own]);
    try {
      await provider.generate(request({ apiKey: own }));
      assert.equal(fake.requests.at(-1)!.headers['x-goog-api-key'], own);
      await provider.checkKey(own);
      assert.equal(fake.modelListings.at(-1)!.headers['x-goog-api-key'], own);
      await assert.rejects(
        provider.checkKey('AIza-revoked'),
        (error: Error) => error instanceof LlmRequestRejectedError && /API key not valid/.test(error.message),
      );
    } finally {
      fake.acceptedKeys = null;
    }
  });

  it("counts a request's input tokens with countTokens: contents only, so the instructions and tool declarations go in as texts first", async () => {
    const tokens = await provider.countInputTokens(request({ tools: [LOOKUP] }));
    const { model, body } = fake.tokenCounts.at(-1)!;
    assert.equal(model, 'gemini-2.5-flash');
    assert.equal(tokens, Math.ceil(JSON.stringify(body.contents).length / 4));
    assert.equal(body.contents[0].parts[0].text, 'Answer briefly.');
    assert.match(body.contents[0].parts[1].text, /lookup_order/);
    assert.equal(body.contents.at(-1).parts[0].text, 'Where is order 7?');
    assert.equal(body.systemInstruction, undefined, 'the Gemini API takes none in a count');
  });
});
