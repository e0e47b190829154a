import type { PylonConfig } from '@pylon/config';
import type { Embedder } from './embedder';
import { LocalLexicalEmbedder } from './local-lexical-embedder';
import { OpenAiEmbedder } from './openai-embedder';
import { UnavailableEmbedder } from './unavailable-embedder';

/** Receives one line for each notable start-up decision (e.g. embedding is not available). */
export type EmbeddingLog = (message: string) => void;

type EmbeddingSettings = Pick<
  PylonConfig,
  'embeddingProvider' | 'embeddingModel' | 'embeddingDimensions' | 'embeddingTimeoutMs' | 'openaiApiKey' | 'openaiBaseUrl'
>;

/**
 * The embedder EMBEDDING_PROVIDER names. `openai` without OPENAI_API_KEY does not stop start-up:
 * it gives an embedder whose `embed` throws EmbeddingUnavailableError, and logs why.
 * EMBEDDING_MODEL applies to `openai` only.
 */
export function createEmbedder(config: EmbeddingSettings, log?: EmbeddingLog): Embedder {
  const dimensions = config.embeddingDimensions;
  switch (config.embeddingProvider) {
    case 'local':
      return new LocalLexicalEmbedder(dimensions);
    case 'openai': {
      if (!config.openaiApiKey) {
        const reason = 'OPENAI_API_KEY is not set, so EMBEDDING_PROVIDER=openai cannot embed; set OPENAI_API_KEY or use EMBEDDING_PROVIDER=local';
        log?.(`embeddings unavailable: ${reason}`);
        return new UnavailableEmbedder(`openai/${config.embeddingModel}`, dimensions, reason);
      }
      return new OpenAiEmbedder({
        apiKey: config.openaiApiKey,
        baseUrl: config.openaiBaseUrl,
        model: config.embeddingModel,
        dimensions,
        timeoutMs: config.embeddingTimeoutMs,
      });
    }
    default: {
      const unknown: never = config.embeddingProvider;
      throw new Error(`unknown EMBEDDING_PROVIDER ${String(unknown)}`);
    }
  }
}
