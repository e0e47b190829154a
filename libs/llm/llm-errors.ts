/** The provider refused the request itself (4xx): retrying cannot help. */
export class LlmRequestRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LlmRequestRejectedError';
  }
}

/** Rate limits, 5xx, overload, timeouts and network failures: worth retrying with backoff, after `retryAfterMs` when the provider said. */
export class LlmUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'LlmUnavailableError';
  }
}
