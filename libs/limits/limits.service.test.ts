import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { loadConfig } from '@pylon/config';
import type { OrgLimitsRepository, RateLimitStore } from '@pylon/db';
import { LimitExceededError } from './limit-errors';
import { LimitsService, runStartDelayMs } from './limits.service';
import { RateLimitMetrics } from './rate-limit-metrics';

/**
 * The rules over the library's in-memory limiter, which keeps the same fixed windows as its PostgreSQL
 * store (that one is exercised by test/e2e/limits.e2e.test.ts across two API processes).
 */
class MemoryStore {
  private readonly limiters = new Map<string, RateLimiterMemory>();
  failing = false;
  calls = 0;

  limiter(keyPrefix: string, points: number, duration: number) {
    const id = `${keyPrefix}|${points}|${duration}`;
    if (!this.limiters.has(id)) this.limiters.set(id, new RateLimiterMemory({ keyPrefix, points, duration }));
    const limiter = this.limiters.get(id)!;
    return {
      consume: (key: string, points?: number) => {
        this.calls++;
        return this.failing ? Promise.reject(new Error('connection refused')) : limiter.consume(key, points);
      },
    };
  }
}

function service(env: Record<string, string> = {}, orgRow: unknown = null, store = new MemoryStore()) {
  const metrics = new RateLimitMetrics();
  const orgLimits = { find: async () => orgRow } as unknown as OrgLimitsRepository;
  const limits = new LimitsService(loadConfig(env), orgLimits, store as unknown as RateLimitStore, metrics);
  return { limits, store, metrics };
}

const own = (perSecond: number | null, burst: number | null) => ({ perSecond, burst });

describe('LimitsService', () => {
  it('takes a key\'s window from the store in leases, never admitting more than the rate, across replicas', async () => {
    const store = new MemoryStore();
    const replicas = [service({}, null, store).limits, service({}, null, store).limits];
    let admitted = 0;
    let requests = 0;
    let callsBeforeFirstRefusal: number | undefined;
    // Both replicas serve one key, interleaved, well past its rate of 200/s and burst of 220.
    while (requests < 600) {
      const decisions = await Promise.all(replicas.map((limits) => limits.admitKeyRequest('leased', own(200, 220))));
      requests += decisions.length;
      admitted += decisions.filter((decision) => decision!.allowed).length;
      if (callsBeforeFirstRefusal === undefined && decisions.some((decision) => !decision!.allowed)) callsBeforeFirstRefusal = store.calls;
    }
    assert.ok(admitted <= 220, `admitted ${admitted} of a window of 200 + burst 20`);
    assert.ok(admitted >= 200, `admitted ${admitted}: leases that find the window spent may refuse early, but not the window's worth`);
    assert.ok(callsBeforeFirstRefusal! < 100, `${callsBeforeFirstRefusal} store calls to admit the window's 200 requests`);
  });

  it('a lease saves store round trips: one per several requests while the window lasts', async () => {
    const { limits, store } = service();
    for (let i = 0; i < 100; i++) assert.ok((await limits.admitKeyRequest('busy', own(1_000, 1_000)))!.allowed);
    assert.ok(store.calls <= 10, `${store.calls} store calls for 100 requests`);
  });

  it('lets a burst through at once, then refuses until the second is over', async () => {
    const { limits, metrics } = service();
    const decisions = [];
    for (let i = 0; i < 12; i++) decisions.push(await limits.admitKeyRequest('key-1', own(4, 10)));
    assert.equal(decisions.filter((decision) => decision!.allowed).length, 10, '4 for the second + 6 of burst allowance');
    const refused = decisions[11]!;
    assert.equal(refused.allowed, false);
    assert.equal(refused.limit, 4);
    assert.equal(refused.retryAfterSeconds, 1);
    assert.equal(metrics.rejections.api_key_rate, 2);
    assert.deepEqual([decisions[0]!.remaining, decisions[3]!.remaining, decisions[4]!.remaining], [3, 0, 0]);
  });

  it('after the burst, a new second brings the sustained rate only', async () => {
    const { limits } = service();
    for (let i = 0; i < 10; i++) assert.ok((await limits.admitKeyRequest('key-2', own(4, 10)))!.allowed);
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    const next = [];
    for (let i = 0; i < 6; i++) next.push((await limits.admitKeyRequest('key-2', own(4, 10)))!.allowed);
    assert.deepEqual(next, [true, true, true, true, false, false]);
  });

  it('counts each key on its own', async () => {
    const { limits } = service();
    for (let i = 0; i < 3; i++) await limits.admitKeyRequest('busy', own(2, 2));
    assert.equal((await limits.admitKeyRequest('busy', own(2, 2)))!.allowed, false);
    assert.equal((await limits.admitKeyRequest('quiet', own(2, 2)))!.allowed, true);
  });

  it('uses the configured defaults for a key without its own limit', async () => {
    const { limits } = service({ RATE_LIMIT_PER_SECOND: '3', RATE_LIMIT_BURST: '3' });
    const allowed = [];
    for (let i = 0; i < 5; i++) allowed.push((await limits.admitKeyRequest('default-key', own(null, null)))!.allowed);
    assert.deepEqual(allowed, [true, true, true, false, false]);
  });

  it('fails open when the store fails: no decision, a counted store error', async () => {
    const { limits, store, metrics } = service();
    store.failing = true;
    assert.equal(await limits.admitKeyRequest('key-3', own(1, 1)), null);
    assert.equal(await limits.admitKeyRequest('key-3', own(1, 1)), null);
    await limits.admitTestEvent('org');
    assert.equal(metrics.storeErrors, 3);
    assert.equal(metrics.rejections.api_key_rate, 0);
  });

  it('refuses test events past the per-minute cap with a Retry-After', async () => {
    const { limits, metrics } = service({ WEBHOOK_TEST_EVENTS_PER_MINUTE: '2' });
    await limits.admitTestEvent('org');
    await limits.admitTestEvent('org');
    await assert.rejects(limits.admitTestEvent('org'), (error: unknown) => {
      assert.ok(error instanceof LimitExceededError);
      assert.match(error.message, /2 test events per minute/);
      assert.ok(error.retryAfterSeconds! >= 59 && error.retryAfterSeconds! <= 60);
      return true;
    });
    assert.equal(metrics.rejections.test_events_per_minute, 1);
  });

  it("admits an organisation's runs up to its runs per second, then refuses with the time to wait", async () => {
    const { limits, metrics } = service({ AGENT_RUNS_PER_SECOND: '4' });
    for (let i = 0; i < 4; i++) await limits.admitRunStart('org');
    await assert.rejects(limits.admitRunStart('org'), (error: unknown) => {
      assert.ok(error instanceof LimitExceededError);
      assert.match(error.message, /may start 4 agent runs per second; retry in 1 s/);
      assert.equal(error.retryAfterSeconds, 1);
      return true;
    });
    await limits.admitRunStart('other-org');
    assert.equal(metrics.rejections.agent_runs_per_second, 1);
  });

  it("paces a burst of an organisation's runs over its second (each admitted 1/rate s after the one before); runs at the pace wait for nothing", async () => {
    const { limits } = service({ AGENT_RUNS_PER_SECOND: '10' });
    const started = Date.now();
    const admittedAfter = await Promise.all(Array.from({ length: 10 }, () => limits.admitRunStart('bursty').then(() => Date.now() - started)));
    admittedAfter.sort((a, b) => a - b);
    // The i-th run of the window is due i × 100 ms into it (timers may fire a little late, never early).
    admittedAfter.forEach((ms, i) => assert.ok(ms >= i * 100 - 5 && ms < i * 100 + 80, `run ${i} admitted after ${ms} ms, expected ~${i * 100}`));

    const paced = service({ AGENT_RUNS_PER_SECOND: '10' }).limits;
    for (let i = 0; i < 3; i++) {
      const before = Date.now();
      await paced.admitRunStart('steady');
      assert.ok(Date.now() - before < 20, `run ${i}, 150 ms after the one before, waited ${Date.now() - before} ms`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  });

  it('a run is due index / rate seconds into its window, never in the past', () => {
    const windowEndsAt = 10_000;
    // A fresh window (it started now): the first run at once, the 5th 400 ms in, at 10/s.
    assert.equal(runStartDelayMs(10, 9, windowEndsAt, 9_000), 0);
    assert.equal(runStartDelayMs(10, 5, windowEndsAt, 9_000), 400);
    // Half-way through the window the 3rd run is already due.
    assert.equal(runStartDelayMs(10, 7, windowEndsAt, 9_500), 0);
    assert.equal(runStartDelayMs(4, 0, windowEndsAt, 9_100), 650);
  });

  it("takes an organisation's own runs per second over the default, and leases a high rate's window a few runs at a time", async () => {
    const row = { orgId: 'org', webhookEndpoints: null, testEventsPerMinute: null, inflightDeliveriesPerEndpoint: null, agentRunsPerSecond: 500, updatedAt: new Date() };
    const { limits, store } = service({ AGENT_RUNS_PER_SECOND: '2' }, row);
    for (let i = 0; i < 300; i++) await limits.admitRunStart('org');
    assert.ok(store.calls < 40, `${store.calls} store calls for 300 runs`);
  });

  it('lets runs through when the store fails', async () => {
    const { limits, store } = service({ AGENT_RUNS_PER_SECOND: '1' });
    store.failing = true;
    for (let i = 0; i < 5; i++) await limits.admitRunStart('org');
  });

  it('creates within the endpoint cap, and names the count and the cap past it', async () => {
    const { limits, metrics } = service({}, { orgId: 'org', webhookEndpoints: 3, testEventsPerMinute: null, inflightDeliveriesPerEndpoint: null, updatedAt: new Date() });
    assert.equal(await limits.withinWebhookEndpointCap('org', async (cap) => ({ created: `made under ${cap}` })), 'made under 3');
    await assert.rejects(
      limits.withinWebhookEndpointCap('org', async () => ({ count: 3 })),
      (error: unknown) => error instanceof LimitExceededError && error.message === 'this organisation has 3 webhook endpoints, its limit is 3' && error.retryAfterSeconds === undefined,
    );
    assert.equal(metrics.rejections.webhook_endpoints, 1);
  });

  it("holds a key's open event streams to the cap, each key on its own, and a closed stream frees its place once", () => {
    const { limits, metrics } = service({ EVENT_STREAMS_PER_KEY: '2' });
    const first = limits.openEventStream('key-a');
    limits.openEventStream('key-a');
    assert.throws(
      () => limits.openEventStream('key-a'),
      (error: unknown) => error instanceof LimitExceededError && error.message === 'this API key has 2 event streams open on this server, its limit is 2; close one first',
    );
    assert.doesNotThrow(() => limits.openEventStream('key-b'));
    first();
    first();
    limits.openEventStream('key-a');
    assert.throws(() => limits.openEventStream('key-a'), LimitExceededError, 'closing twice freed one place, not two');
    assert.equal(metrics.rejections.event_streams_per_key, 2);
  });
});
