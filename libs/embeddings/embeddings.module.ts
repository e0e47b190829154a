import { Logger, Module } from '@nestjs/common';
import { PylonConfig } from '@pylon/config';
import { CachedQueryEmbedder } from './cached-query-embedder';
import { createEmbedder } from './create-embedder';
import type { Embedder } from './embedder';
import { EmbeddingProvider } from './embedding-provider';

/**
 * Provides the embedder EMBEDDING_PROVIDER names as `EmbeddingProvider`, and `CachedQueryEmbedder`
 * over it (QUERY_EMBEDDING_CACHE_SIZE entries). Needs `PylonConfig` (the global ConfigModule).
 */
@Module({
  providers: [
    {
      provide: EmbeddingProvider,
      useFactory: (config: PylonConfig): Embedder => {
        const logger = new Logger('Embeddings');
        return createEmbedder(config, (message) => logger.warn(message));
      },
      inject: [PylonConfig],
    },
    {
      provide: CachedQueryEmbedder,
      useFactory: (embedder: Embedder, config: PylonConfig) => new CachedQueryEmbedder(embedder, config.queryEmbeddingCacheSize),
      inject: [EmbeddingProvider, PylonConfig],
    },
  ],
  exports: [EmbeddingProvider, CachedQueryEmbedder],
})
export class EmbeddingsModule {}
