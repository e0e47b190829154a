import { PylonError, type ErrorCode } from '@pylon/contracts';

/**
 * An error of the HTTP exchange itself, not of the domain (an `Allow` list, a key's RateLimit-* headers):
 * a PylonError that also carries the response headers to send with it.
 */
export class ApiError extends PylonError {
  constructor(
    code: ErrorCode,
    detail?: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(code, detail);
    this.name = 'ApiError';
  }
}
