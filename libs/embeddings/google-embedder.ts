import { ApiError, GoogleGenAI } from '@google/genai';
import type { Embedder } from './embedder';
import { EmbeddingError, EmbeddingRejectedError, EmbeddingTransientError } from './embedding-errors';
import { isRetryableStatus } from './classify-openai-error';
import { checkedEmbedding } from './checked-embedding';

export interface GoogleEmbedderOptions {
  apiKey: string;
  /** A proxy or a local server speaking the Gemini API; Google when unset. */
  baseUrl?: string;
  model: string;
  dimensions: number;
  timeoutMs: number;
}

/** The Gemini API's limit on texts per batchEmbedContents request. */
const GOOGLE_MAX_INPUTS = 100;

/**
 * Google's embedding models (`gemini-embedding-001`, …) through the official SDK's `embedContent`
 * (`batchEmbedContents`), at `outputDimensionality` = EMBEDDING_DIMENSIONS; vectors checked and normalised
 * (Gemini normalises only at its full size). The SDK's retries are off: Temporal retries the activity.
 */
export class GoogleEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly client: GoogleGenAI;

  constructor(private readonly options: GoogleEmbedderOptions) {
    this.id = `google/${options.model}`;
    this.dimensions = options.dimensions;
    this.client = new GoogleGenAI({
      apiKey: options.apiKey,
      httpOptions: { ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}), timeout: options.timeoutMs, retryOptions: { attempts: 1 } },
    });
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    signal?.throwIfAborted();
    if (texts.length === 0) return [];
    if (texts.length > GOOGLE_MAX_INPUTS)
      throw new EmbeddingRejectedError(`${texts.length} texts in one request; Gemini takes at most ${GOOGLE_MAX_INPUTS}`);
    let embeddings: Array<{ values?: number[] }> | undefined;
    try {
      const response = await this.client.models.embedContent({
        model: this.options.model,
        contents: texts,
        config: { outputDimensionality: this.dimensions, ...(signal ? { abortSignal: signal } : {}) },
      });
      embeddings = response.embeddings;
    } catch (error) {
      throw this.failure(error, signal);
    }
    if (!embeddings || embeddings.length !== texts.length) {
      throw new EmbeddingTransientError(`Gemini returned ${embeddings?.length ?? 0} embeddings for ${texts.length} texts`);
    }
    return embeddings.map((embedding, index) => checkedEmbedding(this.id, this.dimensions, embedding.values, index));
  }

  private failure(error: unknown, signal: AbortSignal | undefined): unknown {
    if (error instanceof EmbeddingError) return error;
    if (signal?.aborted) return signal.reason ?? error;
    if (error instanceof ApiError) {
      const message = `Gemini embeddings answered ${error.status}: ${error.message}`;
      return isRetryableStatus(error.status)
        ? new EmbeddingTransientError(message, { cause: error })
        : new EmbeddingRejectedError(message, { cause: error });
    }
    return new EmbeddingTransientError(`Gemini embeddings failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
