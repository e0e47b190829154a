import { ErrorCode, PylonError } from '@pylon/contracts';

/** The common base, for callers that handle every embedding failure alike. */
export abstract class EmbeddingError extends PylonError {
  /** Whether retrying the same request later may succeed. */
  abstract readonly retryable: boolean;

  constructor(message: string, options?: { cause?: unknown }) {
    super(ErrorCode.EmbeddingUnavailable, message, options);
  }
}

/** Embedding is not configured (e.g. OPENAI_API_KEY is missing); the message says what is missing. */
export class EmbeddingUnavailableError extends EmbeddingError {
  readonly retryable = false;
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddingUnavailableError';
  }
}

/** The provider refused the request itself (4xx other than 408/409/429, or a malformed answer): retrying cannot help. */
export class EmbeddingRejectedError extends EmbeddingError {
  readonly retryable = false;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EmbeddingRejectedError';
  }
}

/** Rate limits (429), 408/409, 5xx, timeouts and network failures: worth retrying with backoff. */
export class EmbeddingTransientError extends EmbeddingError {
  readonly retryable = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EmbeddingTransientError';
  }
}
