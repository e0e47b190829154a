import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { burstAllowance, effectiveKeyRate, toDecision } from './key-rate';

describe('API key rate', () => {
  const defaults = { perSecond: 50, burst: 100 };

  it("takes the key's own values where it has them, the defaults elsewhere", () => {
    assert.deepEqual(effectiveKeyRate(defaults, { perSecond: null, burst: null }), { perSecond: 50, burst: 100 });
    assert.deepEqual(effectiveKeyRate(defaults, { perSecond: 5, burst: 5 }), { perSecond: 5, burst: 5 });
    assert.deepEqual(effectiveKeyRate(defaults, { perSecond: null, burst: 300 }), { perSecond: 50, burst: 300 });
  });

  it('never lets the burst fall below the rate', () => {
    assert.deepEqual(effectiveKeyRate(defaults, { perSecond: 500, burst: null }), { perSecond: 500, burst: 500 });
    assert.equal(burstAllowance({ perSecond: 500, burst: 500 }), 0);
    assert.equal(burstAllowance(defaults), 50);
  });

  it('turns a limiter answer into header values: whole seconds, a retry never sooner than 1 s', () => {
    const rate = { perSecond: 5, burst: 5 };
    assert.deepEqual(toDecision(rate, true, new RateLimiterRes(3, 420, 2, false)), {
      allowed: true,
      limit: 5,
      remaining: 3,
      resetSeconds: 1,
      retryAfterSeconds: 1,
    });
    const refused = toDecision(rate, false, new RateLimiterRes(0, 0, 9, false));
    assert.equal(refused.allowed, false);
    assert.equal(refused.remaining, 0);
    assert.equal(refused.resetSeconds, 0);
    assert.equal(refused.retryAfterSeconds, 1);
  });
});
