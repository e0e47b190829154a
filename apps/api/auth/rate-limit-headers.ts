import type { RateDecision } from '@pylon/limits';

/**
 * The RateLimit-* headers of a key-authenticated response (the IETF draft's names): the requests allowed per
 * one-second window, those left in it, and the seconds until it resets. A refusal adds Retry-After.
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
