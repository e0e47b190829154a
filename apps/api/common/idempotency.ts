import { PylonError } from '@pylon/contracts';
import { ApiHeader } from '@nestjs/swagger';

/** 1–255 visible ASCII characters: the rule, and how the OpenAPI document states it. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_KEY_SCHEMA = { type: 'string', pattern: IDEMPOTENCY_KEY.source, maxLength: 255 } as const;

/** An `Idempotency-Key` header: 1–255 visible ASCII characters, or absent. */
export function readIdempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || !IDEMPOTENCY_KEY.test(value)) {
    throw PylonError.invalidRequest('Idempotency-Key must be 1-255 visible ASCII characters');
  }
  return value;
}

/** Documents an operation's optional Idempotency-Key header; `description` says what a retry answers. */
export function ApiIdempotencyKey(description: string): MethodDecorator {
  return ApiHeader({ name: 'Idempotency-Key', required: false, schema: IDEMPOTENCY_KEY_SCHEMA, description });
}
