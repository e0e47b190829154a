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

/** What the rate limit answered for one request, for the RateLimit-* and Retry-After headers. */
export interface RateDecision {
  allowed: boolean;
  /** The bucket's size: requests the key may send at once. */
  limit: number;
  /** Whole requests left in the bucket now. */
  remaining: number;
  /** Whole seconds until the bucket is full again. */
  resetSeconds: number;
  /** On a refusal: whole seconds (at least 1) until a request can pass again. */
  retryAfterSeconds: number;
}

/** A decision from the bucket's level (`tokens`, fractional) after this request was or was not let through. */
export function toDecision(rate: KeyRate, allowed: boolean, tokens: number): RateDecision {
  const level = Math.max(0, Math.min(rate.burst, tokens));
  return {
    allowed,
    limit: rate.burst,
    remaining: Math.floor(level),
    resetSeconds: Math.ceil((rate.burst - level) / rate.perSecond),
    retryAfterSeconds: Math.max(1, Math.ceil((1 - level) / rate.perSecond)),
  };
}
