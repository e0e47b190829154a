/** The common base, for callers that handle every provider failure alike. */
export abstract class VideoProviderError extends Error {
  /** Whether retrying the same call later may succeed. */
  abstract readonly retryable: boolean;
}

/** The provider refused the request itself (4xx other than 408/409/429, invalid input, a malformed answer): do not retry. */
export class VideoProviderRejectedError extends VideoProviderError {
  readonly retryable = false;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VideoProviderRejectedError';
  }
}

/** Rate limits (429), 408/409, 5xx, timeouts, network and local I/O hiccups: retry with backoff. */
export class VideoProviderTransientError extends VideoProviderError {
  readonly retryable = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VideoProviderTransientError';
  }
}

/** The provider is not configured or cannot run here (e.g. no LUMA_API_KEY, no ffmpeg); the message says what is missing. */
export class VideoProviderUnavailableError extends VideoProviderError {
  readonly retryable = false;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VideoProviderUnavailableError';
  }
}
