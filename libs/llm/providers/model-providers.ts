import type { PylonConfig } from '@pylon/config';
import type { LlmProvider } from '../llm-provider';
import { AnthropicLlmProvider } from './anthropic.provider';
import { ChatCompletionsProvider } from './chat-completions.provider';
import { GoogleLlmProvider } from './google.provider';
import { ResponsesProvider } from './responses.provider';
import type { OpenAiEndpoint } from './openai-endpoint';
import type { LocalLlmProvider } from './local.provider';

/**
 * The providers this server offers: the offline `local`, the built-in `openai`, `anthropic` and `google` (each
 * configured by its key), and every OpenAI-compatible endpoint the operator names in MODEL_PROVIDERS, by the
 * wire API it speaks.
 */
export function modelProviders(config: PylonConfig, local: LocalLlmProvider): LlmProvider[] {
  return [
    local,
    openAiEndpointProvider(config.openaiApi, {
      name: 'openai',
      vendor: 'OpenAI',
      baseUrl: config.openaiBaseUrl,
      apiKey: config.openaiApiKey,
      apiKeyVariable: 'OPENAI_API_KEY',
      timeoutMs: config.llmTimeoutMs,
    }),
    new AnthropicLlmProvider(config),
    new GoogleLlmProvider(config),
    ...config.modelProviders.map((endpoint) =>
      openAiEndpointProvider(endpoint.api, {
        name: endpoint.name,
        vendor: endpoint.name,
        baseUrl: endpoint.baseUrl,
        apiKey: endpoint.apiKey,
        apiKeyVariable: endpoint.apiKeyEnv,
        timeoutMs: config.llmTimeoutMs,
      }),
    ),
  ];
}

function openAiEndpointProvider(api: 'responses' | 'chat_completions', endpoint: OpenAiEndpoint): LlmProvider {
  return api === 'responses' ? new ResponsesProvider(endpoint) : new ChatCompletionsProvider(endpoint);
}
