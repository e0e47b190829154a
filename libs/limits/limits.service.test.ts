import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { loadConfig } from '@pylon/config';
import type { BucketTake, KeyRateBucketRepository } from './repositories/key-rate-bucket.repository';
import type { OrgLimitsRepository } from './repositories/org-limits.repository';
import type { RateLimitStore } from './repositories/rate-limit-store';
import { LimitExceededError, RetryLaterError } from './limit-errors';
import { LimitsService } from './limits.service';
import { RateLimitMetrics } from './rate-limit-metrics';

/** rate-limiter-flexible's in-memory limiter, with the same fixed windows as its PostgreSQL store (test events per minute). */
class MemoryWindows {
  private readonly limiters = new Map<string, RateLimiterMemory>();
  failing = false;

  limiter(keyPrefix: string, points: number, duration: number) {
    const id = `${keyPrefix}|${points}|${duration}`;
    if (!this.limiters.has(id)) this.limiters.set(id, new RateLimiterMemory({ keyPrefix, points, duration }));
    const limiter = this.limiters.get(id)!;
    return {
      consume: (key: string, points?: number) => (this.failing ? Promise.reject(new Error('connection refused')) : limiter.consume(key, points)),
    };
  }
}

/**
 * The token bucket statement of KeyRateBucketRepository, in memory: refill at the rate up to the burst,
 * grant the whole tokens there are up to what is asked. (The statement itself runs in
 * test/e2e/limits.e2e.test.ts, on both databases, across two API processes.)
 */
class MemoryBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  failing = false;
  takes = 0;

  async take(keyId: string, burst: number, rate: number, wanted: number): Promise<BucketTake> {
    this.takes++;
    await new Promise((resolve) => setTimeout(resolve, 1)); // a round trip: requests arriving meanwhile wait for the next take
    if (this.failing) throw new Error('connection refused');
    const now = performance.now();
    const bucket = this.buckets.get(keyId) ?? { tokens: burst, at: now };
    const level = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    const granted = Math.min(wanted, Math.floor(level));
    this.buckets.set(keyId, { tokens: level - granted, at: now });
    return { granted, tokens: level - granted };
  }
}

function service(env: Record<string, string> = {}, orgRow: unknown = null, buckets = new MemoryBuckets()) {
  const metrics = new RateLimitMetrics();
  const windows = new MemoryWindows();
  const orgLimits = { find: async () => orgRow } as unknown as OrgLimitsRepository;
  const limits = new LimitsService(
    loadConfig(env),
    orgLimits,
    windows as unknown as RateLimitStore,
    buckets as unknown as KeyRateBucketRepository,
    metrics,
  );
  return { limits, buckets, windows, metrics };
}

const own = (perSecond: number | null, burst: number | null) => ({ perSecond, burst });
const orgRow = (overrides: Record<string, number>) => ({
  orgId: 'org',
  webhookEndpoints: null,
  testEventsPerMinute: null,
  inflightDeliveriesPerEndpoint: null,
  dispatchWeight: null,
  queuedRuns: null,
  queuedDocuments: null,
  updatedAt: new Date(),
  ...overrides,
});

describe('LimitsService', () => {
  it("lets a burst of exactly the key's burst through at once, concurrently, and refuses the next with the time to wait", async () => {
    const { limits, metrics } = service();
    const decisions = await Promise.all(Array.from({ length: 101 }, () => limits.admitKeyRequest('burst', own(50, 100))));
    assert.equal(decisions.filter((decision) => decision!.allowed).length, 100);
    const refused = decisions.find((decision) => !decision!.allowed)!;
    assert.deepEqual([refused.retryAfterSeconds, refused.limit, refused.remaining], [1, 100, 0]);
    assert.equal(metrics.rejections.api_key_rate, 1);
  });

  it('refills at the rate: a drained bucket lets one request through per 1/rate s', async () => {
    const { limits } = service();
    for (let i = 0; i < 4; i++) assert.ok((await limits.admitKeyRequest('slow', own(4, 4)))!.allowed);
    assert.equal((await limits.admitKeyRequest('slow', own(4, 4)))!.allowed, false);
    await new Promise((resolve) => setTimeout(resolve, 260));
    assert.equal((await limits.admitKeyRequest('slow', own(4, 4)))!.allowed, true);
    assert.equal((await limits.admitKeyRequest('slow', own(4, 4)))!.allowed, false);
  });

  it("refuses a drained key's requests without asking the store until its next token is due", async () => {
    const { limits, buckets, metrics } = service();
    for (let i = 0; i < 4; i++) assert.ok((await limits.admitKeyRequest('flood', own(4, 4)))!.allowed);
    const takes = buckets.takes;
    const refused = await Promise.all(Array.from({ length: 200 }, () => limits.admitKeyRequest('flood', own(4, 4))));
    assert.ok(refused.every((decision) => !decision!.allowed && decision!.retryAfterSeconds === 1 && decision!.remaining === 0));
    assert.equal(buckets.takes, takes, 'no take while the bucket holds no whole token');
    assert.equal(metrics.rejections.api_key_rate, 200);
    // A rate raised meanwhile refills faster: the store is asked again.
    assert.ok((await limits.admitKeyRequest('flood', own(1_000, 1_000)))!.allowed);
    assert.equal(buckets.takes, takes + 1);
    await new Promise((resolve) => setTimeout(resolve, 260));
    assert.ok((await limits.admitKeyRequest('flood', own(4, 4)))!.allowed, 'the next token, once due, is taken from the store');
  });

  it('two replicas on one bucket never let through more than it holds, and refuse early at most what they took ahead', async () => {
    const buckets = new MemoryBuckets();
    const replicas = [service({}, null, buckets).limits, service({}, null, buckets).limits];
    const started = performance.now();
    let admitted = 0;
    for (let round = 0; round < 150; round++) {
      const decisions = await Promise.all(
        replicas.flatMap((limits) => [limits.admitKeyRequest('shared', own(200, 220)), limits.admitKeyRequest('shared', own(200, 220))]),
      );
      admitted += decisions.filter((decision) => decision!.allowed).length;
    }
    const refilled = ((performance.now() - started) / 1000) * 200;
    assert.ok(admitted <= 220 + refilled + 1, `admitted ${admitted}, the bucket held 220 and refilled ${refilled.toFixed(0)}`);
    assert.ok(admitted >= 220 + refilled - 2 * 20 - 1, `admitted ${admitted}: a replica takes at most a tenth of the rate ahead`);
  });

  it('a steady stream takes a few tokens ahead: one store round trip per several requests', async () => {
    const { limits, buckets } = service();
    let answeredAtOnce = 0;
    for (let i = 0; i < 100; i++) {
      const decision = limits.admitKeyRequest('busy', own(1_000, 1_000));
      if (!(decision instanceof Promise)) answeredAtOnce++;
      assert.ok((await decision)!.allowed);
    }
    assert.ok(buckets.takes <= 10, `${buckets.takes} takes for 100 requests`);
    assert.equal(answeredAtOnce, 100 - buckets.takes, 'a request served from the tokens taken ahead is answered without a promise');
  });

  it('counts each key on its own, with the configured defaults for a key without its own limit', async () => {
    const { limits } = service({ RATE_LIMIT_PER_SECOND: '3', RATE_LIMIT_BURST: '3' });
    const allowed = [];
    for (let i = 0; i < 5; i++) allowed.push((await limits.admitKeyRequest('default-key', own(null, null)))!.allowed);
    assert.deepEqual(allowed, [true, true, true, false, false]);
    assert.equal((await limits.admitKeyRequest('other-key', own(null, null)))!.allowed, true);
  });

  it('fails open when a store fails: no decision, a counted store error', async () => {
    const { limits, buckets, windows, metrics } = service();
    buckets.failing = true;
    windows.failing = true;
    assert.equal(await limits.admitKeyRequest('key-3', own(1, 1)), null);
    assert.equal(await limits.admitKeyRequest('key-3', own(1, 1)), null);
    await limits.admitTestEvent('org');
    assert.equal(metrics.storeErrors, 3);
    assert.equal(metrics.rejections.api_key_rate, 0);
  });

  it('asks to retry test events past the per-minute cap (429, with Retry-After)', async () => {
    const { limits, metrics } = service({ WEBHOOK_TEST_EVENTS_PER_MINUTE: '2' });
    await limits.admitTestEvent('org');
    await limits.admitTestEvent('org');
    await assert.rejects(limits.admitTestEvent('org'), (error: unknown) => {
      assert.ok(error instanceof RetryLaterError);
      assert.match(error.message, /2 test events per minute/);
      assert.ok(error.retryAfterSeconds >= 59 && error.retryAfterSeconds <= 60);
      return true;
    });
    assert.equal(metrics.rejections.test_events_per_minute, 1);
  });

  it('admits work into a backlog below its cap, and asks to retry once the backlog is full', async () => {
    const { limits, metrics } = service({}, orgRow({ queuedRuns: 3 }));
    let queued = 0;
    const count = async (upTo: number) => Math.min(queued, upTo);
    for (let i = 0; i < 3; i++) {
      await limits.admitToBacklog('org', 'runs', count);
      queued++;
    }
    await assert.rejects(limits.admitToBacklog('org', 'runs', count), (error: unknown) => {
      assert.ok(error instanceof RetryLaterError);
      assert.equal(error.message, 'this organisation has 3 agent runs queued, its limit is 3; retry once some have started');
      assert.equal(error.retryAfterSeconds, 5);
      return true;
    });
    queued = 2; // one started; a second later, its count is read afresh
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    await limits.admitToBacklog('org', 'runs', count);
    assert.equal(metrics.rejections.queued_runs, 1);
  });

  it('creates that arrive together share one count and never pass the cap between them', async () => {
    const { limits } = service({}, orgRow({ queuedRuns: 5 }));
    let counts = 0;
    const count = async () => {
      counts++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return 2;
    };
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => limits.admitToBacklog('org', 'runs', count)));
    assert.deepEqual(outcomes.map((outcome) => outcome.status).sort(), [
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
    ]);
    assert.equal(counts, 1);
  });

  it('a recount never forgets what this process admitted in the last second, written or not', async () => {
    const { limits } = service({}, orgRow({ queuedRuns: 5 }));
    const notYetWritten = async () => 0;
    for (let i = 0; i < 5; i++) await limits.admitToBacklog('org', 'runs', notYetWritten);
    await assert.rejects(limits.admitToBacklog('org', 'runs', notYetWritten), RetryLaterError);
  });

  it('far below the cap, a count of the last second stands for the creates that follow it', async () => {
    const { limits } = service();
    let counts = 0;
    const count = async () => {
      counts++;
      return 10;
    };
    for (let i = 0; i < 50; i++) await limits.admitToBacklog('org', 'documents', count);
    assert.equal(counts, 1);
  });

  it("gives an organisation's dispatch weight: its override, else 1", async () => {
    assert.equal(await service().limits.dispatchWeight('org'), 1);
    assert.equal(await service({}, orgRow({ dispatchWeight: 2.5 })).limits.dispatchWeight('org'), 2.5);
  });

  it('creates within the endpoint cap, and names the count and the cap past it (409: waiting does not cure it)', async () => {
    const { limits, metrics } = service({}, orgRow({ webhookEndpoints: 3 }));
    assert.equal(await limits.withinWebhookEndpointCap('org', async (cap) => ({ created: `made under ${cap}` })), 'made under 3');
    await assert.rejects(
      limits.withinWebhookEndpointCap('org', async () => ({ count: 3 })),
      (error: unknown) => error instanceof LimitExceededError && error.message === 'this organisation has 3 webhook endpoints, its limit is 3',
    );
    assert.equal(metrics.rejections.webhook_endpoints, 1);
  });

  it("holds a key's open event streams to the cap, each key on its own, and a closed stream frees its place once", () => {
    const { limits, metrics } = service({ EVENT_STREAMS_PER_KEY: '2' });
    const first = limits.openEventStream('key-a');
    limits.openEventStream('key-a');
    assert.throws(
      () => limits.openEventStream('key-a'),
      (error: unknown) =>
        error instanceof LimitExceededError &&
        error.message === 'this API key has 2 event streams open on this server, its limit is 2; close one first',
    );
    assert.doesNotThrow(() => limits.openEventStream('key-b'));
    first();
    first();
    limits.openEventStream('key-a');
    assert.throws(() => limits.openEventStream('key-a'), LimitExceededError, 'closing twice freed one place, not two');
    assert.equal(metrics.rejections.event_streams_per_key, 2);
  });
});
