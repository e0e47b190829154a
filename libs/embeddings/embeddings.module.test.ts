import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Test } from '@nestjs/testing';
import { ConfigModule, PylonConfig, loadConfig } from '@pylon/config';
import { CachedQueryEmbedder } from './cached-query-embedder';
import { EmbeddingProvider } from './embedding-provider';
import { EmbeddingsModule } from './embeddings.module';

describe('EmbeddingsModule', () => {
  it('provides the configured embedder and the query cache over it', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [ConfigModule, EmbeddingsModule] })
      .overrideProvider(PylonConfig)
      .useValue(loadConfig({ EMBEDDING_DIMENSIONS: '64', QUERY_EMBEDDING_CACHE_SIZE: '5' }))
      .compile();
    const embedder = moduleRef.get(EmbeddingProvider);
    assert.equal(embedder.id, 'local/lexical-hash-v1');
    assert.equal(embedder.dimensions, 64);
    const cache = moduleRef.get(CachedQueryEmbedder);
    assert.equal(cache.embedder, embedder);
    assert.equal(cache.maxEntries, 5);
    assert.equal((await cache.embedQuery('hello world')).length, 64);
    await moduleRef.close();
  });
});
