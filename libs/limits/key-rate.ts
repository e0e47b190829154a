import { RateLimiterRes } from 'rate-limiter-flexible';

/** An API key's effective limit: requests per second sustained, and requests at once. */
export interface KeyRate {
  perSecond: number;
  burst: number;
}

/** The key's own values where it has them (null: the configured default); a burst is never below the rate. */
export function effectiveKeyRate(defaults: KeyRate, own: { perSecond: number | null; burst: number | null }): KeyRate {
  const perSecond = own.perSecond ?? defaults.perSecond;
  return { perSecond, burst: Math.max(own.burst ?? defaults.burst, perSecond) };
}

/**
 * Sustained rate and burst, built from what rate-limiter-flexible offers: a BurstyRateLimiter over two
 * fixed windows kept in PostgreSQL.
 *  - the rate window: `perSecond` requests per 1-second window;
 *  - when a second's requests are spent, further ones draw on a burst allowance of `burst − perSecond`
 *    requests per BURST_WINDOW_SECONDS.
 * So `burst` requests pass at once, and a client that keeps pushing gets at most
 * perSecond + (burst − perSecond) / 60 per second over time (50.8/s with the defaults 50 and 100): the
 * sustained rate plus one burst a minute. The library has no token bucket in PostgreSQL; the other way it
 * allows, one window of `burst` requests per burst/perSecond seconds, would need fractional-second windows
 * (its expiry column is whole milliseconds from a bigint) and lets 2 × burst through around a window edge.
 */
export const BURST_WINDOW_SECONDS = 60;

export function burstAllowance(rate: KeyRate): number {
  return rate.burst - rate.perSecond;
}

/** What the rate limit answered for one request, for the RateLimit-* and Retry-After headers. */
export interface RateDecision {
  allowed: boolean;
  /** Requests per one-second window. */
  limit: number;
  /** Left in the current window (0 while the burst allowance is being spent). */
  remaining: number;
  /** Whole seconds until the current window resets. */
  resetSeconds: number;
  /** On a refusal: whole seconds (at least 1) before a request can pass again. */
  retryAfterSeconds: number;
}

/** Reads a limiter's answer: a RateLimiterRes when it resolved (allowed) or rejected (refused). */
export function toDecision(rate: KeyRate, allowed: boolean, res: RateLimiterRes): RateDecision {
  const resetSeconds = Math.max(0, Math.ceil(res.msBeforeNext / 1000));
  return {
    allowed,
    limit: rate.perSecond,
    remaining: allowed ? Math.max(0, res.remainingPoints) : 0,
    resetSeconds,
    retryAfterSeconds: Math.max(1, resetSeconds),
  };
}
