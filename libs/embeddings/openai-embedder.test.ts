import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { EmbeddingRejectedError, EmbeddingTransientError } from './embedding-errors';
import { OpenAiEmbedder } from './openai-embedder';
import { FakeOpenAi } from '../../test/support/fake-openai';

describe('OpenAiEmbedder', () => {
  let fake: FakeOpenAi;
  const embedder = (options: { dimensions?: number; timeoutMs?: number } = {}): OpenAiEmbedder =>
    new OpenAiEmbedder({
      apiKey: 'sk-test',
      baseUrl: fake.baseUrl,
      model: 'text-embedding-3-small',
      dimensions: options.dimensions ?? 8,
      timeoutMs: options.timeoutMs ?? 5_000,
    });

  before(async () => {
    fake = await FakeOpenAi.start();
    // A vector that identifies its input: entry 0 is the input's length + 1, the rest 1 (not normalised).
    fake.embed = (input, dimensions) => Array.from({ length: dimensions }, (_, i) => (i === 0 ? input.length + 1 : 1));
  });
  after(async () => {
    await fake.stop();
  });
  beforeEach(() => {
    fake.embeddingRequests.length = 0;
  });

  it('sends model, input, dimensions and float encoding, with the API key', async () => {
    const vectors = await embedder().embed(['first text', 'second']);
    assert.equal(vectors.length, 2);
    assert.equal(fake.embeddingRequests.length, 1);
    const { body, authorization } = fake.embeddingRequests[0]!;
    assert.deepEqual(body, { model: 'text-embedding-3-small', input: ['first text', 'second'], dimensions: 8, encoding_format: 'float' });
    assert.equal(authorization, 'Bearer sk-test');
    assert.equal(embedder().id, 'openai/text-embedding-3-small');
  });

  it('orders vectors by index and L2-normalises them', async () => {
    fake.enqueueEmbeddings({ reversed: true });
    const texts = ['a', 'bbbb', 'cccccccc'];
    const vectors = await embedder().embed(texts);
    vectors.forEach((vector, i) => {
      assert.equal(vector.length, 8);
      assert.ok(Math.abs(Math.hypot(...vector) - 1) < 1e-9);
      // The fake's entry 0 is the input's length + 1, the others 1.
      assert.ok(Math.abs(vector[0]! / vector[1]! - (texts[i]!.length + 1)) < 1e-9);
    });
  });

  it('makes no request for no texts', async () => {
    assert.deepEqual(await embedder().embed([]), []);
    assert.equal(fake.embeddingRequests.length, 0);
  });

  for (const status of [429, 500, 503, 408]) {
    it(`${status} is transient`, async () => {
      fake.enqueueEmbeddings({ status, errorMessage: `status ${status} from fake` });
      await assert.rejects(embedder().embed(['x']), (error: unknown) => {
        assert.ok(error instanceof EmbeddingTransientError, String(error));
        assert.equal(error.retryable, true);
        assert.match(error.message, new RegExp(`${status}.*status ${status} from fake`));
        return true;
      });
      assert.equal(fake.embeddingRequests.length, 1, 'the SDK does not retry on its own');
    });
  }

  for (const status of [400, 401, 404]) {
    it(`${status} is rejected`, async () => {
      fake.enqueueEmbeddings({ status });
      await assert.rejects(embedder().embed(['x']), (error: unknown) => {
        assert.ok(error instanceof EmbeddingRejectedError, String(error));
        assert.equal(error.retryable, false);
        assert.match(error.message, new RegExp(String(status)));
        return true;
      });
    });
  }

  it('a vector of the wrong dimension is rejected, saying so', async () => {
    fake.enqueueEmbeddings({ vectors: [[1, 0, 0, 0]] });
    await assert.rejects(embedder().embed(['x']), (error: unknown) => {
      assert.ok(error instanceof EmbeddingRejectedError);
      assert.match(error.message, /returned 4 dimensions for text 0, expected 8 \(EMBEDDING_DIMENSIONS\)/);
      return true;
    });
  });

  it('a zero or non-numeric vector is rejected', async () => {
    fake.enqueueEmbeddings({ vectors: [[0, 0, 0, 0, 0, 0, 0, 0]] }, { vectors: [[1, 2, 3, 4, 5, 6, 7, null as unknown as number]] });
    await assert.rejects(embedder().embed(['x']), /zero vector/);
    await assert.rejects(embedder().embed(['x']), /non-numeric/);
  });

  it('an empty text is rejected before any request', async () => {
    await assert.rejects(embedder().embed(['ok', '']), (error: unknown) => {
      assert.ok(error instanceof EmbeddingRejectedError);
      assert.match(error.message, /text 1 is empty/);
      return true;
    });
    assert.equal(fake.embeddingRequests.length, 0);
  });

  it('a timeout is transient', async () => {
    fake.enqueueEmbeddings({ delayMs: 1_000 });
    const started = Date.now();
    await assert.rejects(embedder({ timeoutMs: 100 }).embed(['slow']), (error: unknown) => {
      assert.ok(error instanceof EmbeddingTransientError, String(error));
      assert.match(error.message, /timed out/);
      return true;
    });
    assert.ok(Date.now() - started < 900);
  });

  it('an unreachable server is transient', async () => {
    const unreachable = new OpenAiEmbedder({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1/v1', model: 'm', dimensions: 8, timeoutMs: 2_000 });
    await assert.rejects(unreachable.embed(['x']), EmbeddingTransientError);
  });

  it("the caller's signal cancels the request with the caller's reason", async () => {
    fake.enqueueEmbeddings({ delayMs: 1_000 });
    const controller = new AbortController();
    const reason = new Error('run cancelled');
    setTimeout(() => controller.abort(reason), 50);
    await assert.rejects(embedder().embed(['x'], controller.signal), (error: unknown) => error === reason);
  });
});
