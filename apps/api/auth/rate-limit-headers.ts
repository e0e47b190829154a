import type { RateDecision } from '@pylon/limits';

/**
 * The RateLimit-* headers of a key-authenticated response (the IETF draft's names), read off the key's
 * token bucket: its size (the burst), the whole requests left in it, and the seconds until it is full
 * again. A refusal adds Retry-After: the seconds until the next request can pass.
 */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
  };
  if (!decision.allowed) headers['Retry-After'] = String(decision.retryAfterSeconds);
  return headers;
}
