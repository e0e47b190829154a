import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '@pylon/config';
import { createEmbedder } from './create-embedder';
import { EmbeddingUnavailableError } from './embedding-errors';
import { OpenAiEmbedder } from './openai-embedder';

describe('createEmbedder', () => {
  it('picks the local lexical embedder by default', () => {
    const embedder = createEmbedder(loadConfig({}));
    assert.equal(embedder.id, 'local/lexical-hash-v1');
    assert.equal(embedder.dimensions, 384);
  });

  it('picks OpenAI with the configured model and dimensions', () => {
    const config = loadConfig({
      EMBEDDING_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-x',
      EMBEDDING_MODEL: 'text-embedding-3-large',
      EMBEDDING_DIMENSIONS: '1024',
    });
    const embedder = createEmbedder(config);
    assert.ok(embedder instanceof OpenAiEmbedder);
    assert.equal(embedder.id, 'openai/text-embedding-3-large');
    assert.equal(embedder.dimensions, 1024);
  });

  it('without OPENAI_API_KEY, starts but embedding fails as unavailable, and logs why', async () => {
    const lines: string[] = [];
    const embedder = createEmbedder(loadConfig({ EMBEDDING_PROVIDER: 'openai' }), (line) => lines.push(line));
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /OPENAI_API_KEY is not set/);
    assert.equal(embedder.id, 'openai/text-embedding-3-small');
    await assert.rejects(embedder.embed(['x']), (error: unknown) => {
      assert.ok(error instanceof EmbeddingUnavailableError);
      assert.equal(error.retryable, false);
      assert.match(error.message, /OPENAI_API_KEY is not set/);
      return true;
    });
  });
});
