export type { Embedder } from './embedder';
export {
  EmbeddingError,
  EmbeddingRejectedError,
  EmbeddingTransientError,
  EmbeddingUnavailableError,
} from './embedding-errors';
export { LocalLexicalEmbedder } from './local-lexical-embedder';
export { OpenAiEmbedder, OPENAI_MAX_INPUTS, type OpenAiEmbedderOptions } from './openai-embedder';
export { UnavailableEmbedder } from './unavailable-embedder';
export { createEmbedder, type EmbeddingLog } from './create-embedder';
export { CachedQueryEmbedder, type QueryVector } from './cached-query-embedder';
export { EmbeddingProvider } from './embedding-provider';
export { EmbeddingsModule } from './embeddings.module';
export { noContentVector } from './vector';
