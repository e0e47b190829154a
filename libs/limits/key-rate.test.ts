import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { effectiveKeyRate, toDecision } from './key-rate';

describe('API key rate', () => {
  const defaults = { perSecond: 50, burst: 100 };

  it("takes the key's own values where it has them, the defaults elsewhere", () => {
    assert.deepEqual(effectiveKeyRate(defaults, { perSecond: null, burst: null }), { perSecond: 50, burst: 100 });
    assert.deepEqual(effectiveKeyRate(defaults, { perSecond: 5, burst: 5 }), { perSecond: 5, burst: 5 });
    assert.deepEqual(effectiveKeyRate(defaults, { perSecond: null, burst: 300 }), { perSecond: 50, burst: 300 });
  });

  it('never lets the burst fall below the rate', () => {
    assert.deepEqual(effectiveKeyRate(defaults, { perSecond: 500, burst: null }), { perSecond: 500, burst: 500 });
  });

  it("reads the headers off the bucket's level: whole requests left, seconds until full, a retry never sooner than 1 s", () => {
    const rate = { perSecond: 5, burst: 10 };
    assert.deepEqual(toDecision(rate, true, 3.4), { allowed: true, limit: 10, remaining: 3, resetSeconds: 2, retryAfterSeconds: 1 });
    assert.deepEqual(toDecision(rate, true, 10), { allowed: true, limit: 10, remaining: 10, resetSeconds: 0, retryAfterSeconds: 1 });
    const refused = toDecision({ perSecond: 1, burst: 2 }, false, 0.2);
    assert.equal(refused.allowed, false);
    assert.equal(refused.remaining, 0);
    assert.equal(refused.retryAfterSeconds, 1, '0.8 of a token at 1/s: 0.8 s, rounded up to 1');
    assert.equal(toDecision({ perSecond: 0.25, burst: 1 }, false, 0).retryAfterSeconds, 4);
  });
});
