import { ErrorCode } from './error-codes';

/**
 * What went wrong in the domain, as one of the wire contract's codes: the API answers it as
 * `{"error": code}` (its status is the API's to choose), the worker lets it through. `detail` is a
 * human-readable reason (the API sends it only in the `Error-Detail` header, never in the body);
 * `retryAfterSeconds` is set when waiting that long cures it.
 */
export class PylonError extends Error {
  readonly retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
    options: { retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(detail ?? code, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PylonError';
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }

  static invalidRequest(detail: string): PylonError {
    return new PylonError(ErrorCode.InvalidRequest, detail);
  }

  static notFound(detail: string): PylonError {
    return new PylonError(ErrorCode.NotFound, detail);
  }

  static insufficientScope(detail: string): PylonError {
    return new PylonError(ErrorCode.InsufficientScope, detail);
  }
}
