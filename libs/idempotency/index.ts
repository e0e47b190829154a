import { createHash } from 'node:crypto';
import { ApiError, ErrorCode } from '@pylon/contracts';

/** A stable fingerprint of a request body, to tell a retry from a different request under the same key. */
export function fingerprint(fields: Record<string, string>): string {
  const canonical = JSON.stringify(Object.keys(fields).sort().map((key) => [key, fields[key]]));
  return createHash('sha256').update(canonical).digest('hex');
}

/** A retry under the same Idempotency-Key must carry the same request: otherwise 409 `idempotency_key_reused`. */
export function assertSameRequest(earlier: { requestHash: string | null }, requestHash: string): void {
  if (earlier.requestHash !== requestHash) {
    throw new ApiError(ErrorCode.IdempotencyKeyReused, 'this Idempotency-Key was used with a different request');
  }
}
