import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '@pylon/config';
import { FakeGemini } from '../../test/support/fake-gemini';
import { createEmbedder } from './create-embedder';
import { EmbeddingRejectedError } from './embedding-errors';
import { GoogleEmbedder } from './google-embedder';
import { l2Norm } from './vector';

const KEY = 'AIza-embed-7e6d5c4b3a';

/** Gemini embeddings at their HTTP boundary: the official SDK against a local server speaking `batchEmbedContents`. */
describe('GoogleEmbedder', () => {
  let fake: FakeGemini;

  before(async () => {
    fake = await FakeGemini.start();
  });
  after(async () => fake?.close());

  const embedder = (dimensions = 16) =>
    createEmbedder(
      loadConfig({
        EMBEDDING_PROVIDER: 'google',
        EMBEDDING_MODEL: 'gemini-embedding-001',
        EMBEDDING_DIMENSIONS: String(dimensions),
        GOOGLE_API_KEY: KEY,
        GOOGLE_BASE_URL: fake.baseUrl,
      }),
    );

  it('EMBEDDING_PROVIDER=google embeds every text in one batch request at EMBEDDING_DIMENSIONS, on the key, normalised, in order', async () => {
    const google = embedder();
    assert.ok(google instanceof GoogleEmbedder);
    assert.equal(google.id, 'google/gemini-embedding-001');
    const vectors = await google.embed(['penguins', 'breed in winter']);
    assert.equal(vectors.length, 2);
    for (const vector of vectors) {
      assert.equal(vector.length, 16);
      assert.ok(Math.abs(l2Norm(vector) - 1) < 1e-9);
    }
    assert.notDeepEqual(vectors[0], vectors[1]);
    const sent = fake.embeddingRequests.at(-1)!;
    assert.equal(sent.model, 'gemini-embedding-001');
    assert.equal(sent.headers['x-goog-api-key'], KEY);
    assert.deepEqual(
      sent.body.requests.map((asked: { content: { parts: Array<{ text: string }> }; outputDimensionality: number }) => [
        asked.content.parts[0]!.text,
        asked.outputDimensionality,
      ]),
      [
        ['penguins', 16],
        ['breed in winter', 16],
      ],
    );
  });

  it('a vector of another size is refused for good, naming EMBEDDING_DIMENSIONS', async () => {
    const original = fake.embed;
    fake.embed = (text) => original(text, 5);
    try {
      await assert.rejects(
        embedder().embed(['x']),
        (error: unknown) => error instanceof EmbeddingRejectedError && /EMBEDDING_DIMENSIONS/.test(error.message),
      );
    } finally {
      fake.embed = original;
    }
  });

  it('a key Gemini refuses is refused for good', async () => {
    fake.acceptedKeys = new Set(['another']);
    try {
      await assert.rejects(embedder().embed(['x']), (error: unknown) => error instanceof EmbeddingRejectedError && /400/.test(error.message));
    } finally {
      fake.acceptedKeys = null;
    }
  });
});
