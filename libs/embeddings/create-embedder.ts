import type { PylonConfig } from '@pylon/config';
import type { Embedder } from './embedder';
import { GoogleEmbedder } from './google-embedder';
import { LocalLexicalEmbedder } from './local-lexical-embedder';
import { OpenAiEmbedder } from './openai-embedder';
import { UnavailableEmbedder } from './unavailable-embedder';

/** Receives one line for each notable start-up decision (e.g. embedding is not available). */
export type EmbeddingLog = (message: string) => void;

type EmbeddingSettings = Pick<
  PylonConfig,
  | 'embeddingProvider'
  | 'embeddingModel'
  | 'embeddingDimensions'
  | 'embeddingTimeoutMs'
  | 'openaiApiKey'
  | 'openaiBaseUrl'
  | 'googleApiKey'
  | 'googleBaseUrl'
  | 'modelProviders'
>;

/**
 * The embedder EMBEDDING_PROVIDER names: `local`, `openai`, `google`, or an OpenAI-compatible endpoint named in
 * MODEL_PROVIDERS (its embeddings endpoint, on its key). A provider without its key does not stop start-up: it
 * gives an embedder whose `embed` throws EmbeddingUnavailableError, and logs why. EMBEDDING_MODEL applies to
 * every provider but `local`.
 */
export function createEmbedder(config: EmbeddingSettings, log?: EmbeddingLog): Embedder {
  const { embeddingProvider: provider, embeddingModel: model, embeddingDimensions: dimensions, embeddingTimeoutMs: timeoutMs } = config;
  const unavailable = (variable: string) => {
    const reason = `${variable} is not set, so EMBEDDING_PROVIDER=${provider} cannot embed; set ${variable} or use EMBEDDING_PROVIDER=local`;
    log?.(`embeddings unavailable: ${reason}`);
    return new UnavailableEmbedder(`${provider}/${model}`, dimensions, reason);
  };
  if (provider === 'local') return new LocalLexicalEmbedder(dimensions);
  if (provider === 'openai') {
    if (!config.openaiApiKey) return unavailable('OPENAI_API_KEY');
    return new OpenAiEmbedder({ apiKey: config.openaiApiKey, baseUrl: config.openaiBaseUrl, model, dimensions, timeoutMs });
  }
  if (provider === 'google') {
    if (!config.googleApiKey) return unavailable('GOOGLE_API_KEY');
    return new GoogleEmbedder({ apiKey: config.googleApiKey, baseUrl: config.googleBaseUrl, model, dimensions, timeoutMs });
  }
  const endpoint = config.modelProviders.find((candidate) => candidate.name === provider);
  if (!endpoint) throw new Error(`unknown EMBEDDING_PROVIDER ${provider}`);
  if (endpoint.apiKeyEnv && !endpoint.apiKey) return unavailable(endpoint.apiKeyEnv);
  return new OpenAiEmbedder({ provider, apiKey: endpoint.apiKey ?? 'no-key', baseUrl: endpoint.baseUrl, model, dimensions, timeoutMs });
}
