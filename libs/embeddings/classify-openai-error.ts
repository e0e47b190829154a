import OpenAI from 'openai';
import { EmbeddingError, EmbeddingRejectedError, EmbeddingTransientError } from './embedding-errors';

/** Statuses worth retrying: request timeout, conflict, rate limit, and server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Maps what the OpenAI SDK throws onto the embedding errors. A cancellation by the caller's signal
 * is not a failure of the provider: the signal's reason (or the SDK's abort error) is thrown as is.
 */
export function classifyOpenAiError(error: unknown, signal: AbortSignal | undefined): unknown {
  if (error instanceof EmbeddingError) return error;
  if (signal?.aborted) return signal.reason ?? error;
  if (error instanceof OpenAI.APIUserAbortError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new EmbeddingTransientError(`OpenAI embeddings timed out: ${error.message}`, { cause: error });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new EmbeddingTransientError(`OpenAI embeddings could not be reached: ${error.message}`, { cause: error });
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const message = `OpenAI embeddings answered ${error.status}: ${error.message}`;
    return isRetryableStatus(error.status)
      ? new EmbeddingTransientError(message, { cause: error })
      : new EmbeddingRejectedError(message, { cause: error });
  }
  if (error instanceof OpenAI.OpenAIError) {
    return new EmbeddingTransientError(`OpenAI embeddings failed: ${error.message}`, { cause: error });
  }
  return error;
}
