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

  it('an endpoint named in MODEL_PROVIDERS embeds through its OpenAI-compatible embeddings endpoint, on its key', async () => {
    const lines: string[] = [];
    const env = {
      MODEL_PROVIDERS: JSON.stringify([
        { name: 'ollama', base_url: 'http://127.0.0.1:11434/v1' },
        { name: 'tei', base_url: 'http://127.0.0.1:8081/v1', api_key_env: 'TEI_KEY' },
      ]),
      EMBEDDING_PROVIDER: 'ollama',
      EMBEDDING_MODEL: 'nomic-embed-text',
      EMBEDDING_DIMENSIONS: '768',
    };
    const embedder = createEmbedder(loadConfig(env));
    assert.ok(embedder instanceof OpenAiEmbedder);
    assert.equal(embedder.id, 'ollama/nomic-embed-text');
    const keyless = createEmbedder(loadConfig({ ...env, EMBEDDING_PROVIDER: 'tei' }), (line) => lines.push(line));
    assert.match(lines[0]!, /TEI_KEY is not set/);
    await assert.rejects(keyless.embed(['x']), EmbeddingUnavailableError);
    assert.throws(() => loadConfig({ EMBEDDING_PROVIDER: 'nosuch' }), /EMBEDDING_PROVIDER/);
  });
});
