import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '@pylon/config';
import { FakeOpenAi } from '../../../test/support/fake-openai';
import { LlmService } from '../llm.service';
import { LocalLlmProvider } from './local.provider';
import { modelProviders } from './model-providers';
import { llmRequest } from '../../../test/support/llm-request';

/** The providers a server offers, and a named OpenAI-compatible endpoint reached at its own base URL with its own key. */
describe('modelProviders', () => {
  let ollama: FakeOpenAi;
  let together: FakeOpenAi;

  before(async () => {
    [ollama, together] = await Promise.all([FakeOpenAi.start(), FakeOpenAi.start()]);
  });

  function service(env: Record<string, string>): LlmService {
    const config = loadConfig(env);
    return new LlmService(modelProviders(config, new LocalLlmProvider()));
  }

  it('offers local, openai, anthropic and google, and each endpoint MODEL_PROVIDERS names, configured by its key', () => {
    const llm = service({
      ANTHROPIC_API_KEY: 'sk-ant',
      MODEL_PROVIDERS: JSON.stringify([
        { name: 'ollama', base_url: ollama.baseUrl },
        { name: 'together', base_url: together.baseUrl, api_key_env: 'TOGETHER_API_KEY' },
      ]),
    });
    assert.deepEqual(
      llm.modelProviders().map(({ provider, configured }) => [provider, configured]),
      [
        ['local', true],
        ['openai', false],
        ['anthropic', true],
        ['google', false],
        ['ollama', true],
        ['together', false],
      ],
    );
    assert.equal(llm.isSupported('ollama/llama3.2'), true);
    assert.equal(llm.isSupported('mistral/large'), false, 'a provider nobody named');
  });

  it("routes <name>/<model> to that endpoint with the model's own name and the endpoint's key, and names the endpoint in its errors", async () => {
    const llm = service({
      MODEL_PROVIDERS: JSON.stringify([
        { name: 'ollama', base_url: ollama.baseUrl },
        { name: 'together', base_url: together.baseUrl, api_key_env: 'TOGETHER_API_KEY' },
      ]),
      TOGETHER_API_KEY: 'tg-key-1',
    });
    const { model: _model, ...ask } = llmRequest('');
    ollama.enqueue({ content: 'from ollama' });
    together.enqueue({ content: 'from together' });
    assert.equal((await llm.generate('ollama/llama3.2:3b', ask)).kind === 'answer' && ollama.requests.at(-1)!.body.model, 'llama3.2:3b');
    const turn = await llm.generate('together/meta-llama/Llama-3.3-70B', ask);
    assert.deepEqual(turn.kind === 'answer' && turn.text, 'from together');
    assert.equal(together.requests.at(-1)!.body.model, 'meta-llama/Llama-3.3-70B');
    assert.equal(together.requests.at(-1)!.authorization, 'Bearer tg-key-1');
    together.enqueue({ status: 503, errorMessage: 'overloaded' });
    await assert.rejects(llm.generate('together/x', ask), /^LlmUnavailableError: together answered 503/);
  });

  after(async () => {
    await Promise.all([ollama, together].map((fake) => fake?.stop()));
  });
});
