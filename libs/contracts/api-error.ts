import { ErrorCode } from './error-codes';

/**
 * A failure the client should see as `{"error": code}`. `detail` is a human-readable reason,
 * sent only in the `Error-Detail` response header, never in the body; `headers` go out with the
 * error response too (e.g. `Retry-After`).
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(detail ?? code);
    this.name = 'ApiError';
  }

  static invalidRequest(detail: string): ApiError {
    return new ApiError(ErrorCode.InvalidRequest, detail);
  }

  static notFound(detail: string): ApiError {
    return new ApiError(ErrorCode.NotFound, detail);
  }

  static insufficientScope(detail: string): ApiError {
    return new ApiError(ErrorCode.InsufficientScope, detail);
  }
}
