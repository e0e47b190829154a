import OpenAI from 'openai';
import type { Embedder } from './embedder';
import { EmbeddingRejectedError, EmbeddingTransientError } from './embedding-errors';
import { classifyOpenAiError } from './classify-openai-error';
import { checkedEmbedding } from './checked-embedding';

export interface OpenAiEmbedderOptions {
  /** The `provider` part of its id: `openai`, or the name of an endpoint in MODEL_PROVIDERS. */
  provider?: string;
  apiKey: string;
  /** An OpenAI-compatible server, e.g. `http://127.0.0.1:8080/v1`; OpenAI itself when unset. */
  baseUrl?: string;
  model: string;
  dimensions: number;
  timeoutMs: number;
}

/** OpenAI's limit on inputs per request; callers batch (EMBEDDING_BATCH_SIZE is at most this). */
export const OPENAI_MAX_INPUTS = 2048;

/**
 * OpenAI, or any OpenAI-compatible server through `baseUrl`, via the embeddings endpoint.
 * The SDK's own retries are off: Temporal retries the activity with backoff instead.
 * Vectors are checked against `dimensions` and L2-normalised here, since compatible servers do
 * not all normalise.
 */
export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly model: string;
  private readonly client: OpenAI;

  constructor(options: OpenAiEmbedderOptions) {
    this.id = `${options.provider ?? 'openai'}/${options.model}`;
    this.model = options.model;
    this.dimensions = options.dimensions;
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      timeout: options.timeoutMs,
      maxRetries: 0,
    });
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    signal?.throwIfAborted();
    if (texts.length === 0) return [];
    this.checkInputs(texts);
    let response: OpenAI.CreateEmbeddingResponse;
    try {
      response = await this.client.embeddings.create(
        { model: this.model, input: texts, dimensions: this.dimensions, encoding_format: 'float' },
        { signal },
      );
    } catch (error) {
      throw classifyOpenAiError(error, signal);
    }
    return this.vectorsInOrder(response, texts.length);
  }

  private checkInputs(texts: string[]): void {
    if (texts.length > OPENAI_MAX_INPUTS) {
      throw new EmbeddingRejectedError(`${texts.length} texts in one request; OpenAI takes at most ${OPENAI_MAX_INPUTS}`);
    }
    const empty = texts.findIndex((text) => text.length === 0);
    if (empty >= 0) throw new EmbeddingRejectedError(`text ${empty} is empty; OpenAI rejects empty input`);
  }

  /** The vectors ordered by their `index`, each checked and normalised. */
  private vectorsInOrder(response: OpenAI.CreateEmbeddingResponse, count: number): number[][] {
    const data = Array.isArray(response?.data) ? response.data : [];
    if (data.length !== count) {
      throw new EmbeddingTransientError(`OpenAI returned ${data.length} embeddings for ${count} texts`);
    }
    const vectors = new Array<number[] | undefined>(count);
    for (const item of data) {
      const index = item.index;
      if (!Number.isInteger(index) || index < 0 || index >= count || vectors[index]) {
        throw new EmbeddingTransientError(`OpenAI returned an embedding with a missing or repeated index ${index}`);
      }
      vectors[index] = checkedEmbedding(this.id, this.dimensions, item.embedding, index);
    }
    return vectors as number[][];
  }
}
