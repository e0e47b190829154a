import { ApiError } from './api-error';

/** How the OpenAPI document describes an `Idempotency-Key` header. */
export const IDEMPOTENCY_KEY_SCHEMA = { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$', maxLength: 255 } as const;

/** An `Idempotency-Key` header: 1–255 visible ASCII characters, or absent. */
export function readIdempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || !/^[\x21-\x7e]{1,255}$/.test(value)) {
    throw ApiError.invalidRequest('Idempotency-Key must be 1-255 visible ASCII characters');
  }
  return value;
}
