import { Injectable, Logger } from '@nestjs/common';
import { BurstyRateLimiter, RateLimiterRes } from 'rate-limiter-flexible';
import { PylonConfig } from '@pylon/config';
import { OrgLimitsRepository, RateLimitStore, type OrgLimitChanges } from '@pylon/db';
import { BURST_WINDOW_SECONDS, burstAllowance, effectiveKeyRate, toDecision, type KeyRate, type RateDecision } from './key-rate';
import { KeyRateLeases } from './key-rate-leases';
import { LimitExceededError } from './limit-errors';
import { effectiveOrgLimits, type EffectiveOrgLimits, type OrgLimitValues } from './org-limits';
import { RateLimitMetrics } from './rate-limit-metrics';

/** How long a process reuses an organisation's limits for admitting runs (an operator's change shows within this). */
const ORG_LIMITS_CACHE_MS = 5_000;

/** How often a failing rate-limit store may be logged (it would otherwise be once per request). */
const STORE_WARNING_INTERVAL_MS = 10_000;

/**
 * The limits, in one place: each API key's request rate (sustained and burst, shared by every API
 * replica through PostgreSQL), and each organisation's caps — agent runs started per second, webhook
 * endpoints, test events per minute, in-flight deliveries per endpoint — with the configured defaults and
 * the operator's overrides.
 */
@Injectable()
export class LimitsService {
  private readonly logger = new Logger(LimitsService.name);
  private lastStoreWarning = 0;
  private readonly leases = new KeyRateLeases();
  private readonly cachedOrgLimits = new Map<string, { limits: EffectiveOrgLimits; until: number }>();
  /** Live event streams open on this process, per API key. */
  private readonly openStreams = new Map<string, number>();

  constructor(
    private readonly config: PylonConfig,
    private readonly orgLimits: OrgLimitsRepository,
    private readonly store: RateLimitStore,
    private readonly metrics: RateLimitMetrics,
  ) {}

  keyRate(own: { perSecond: number | null; burst: number | null }): KeyRate {
    return effectiveKeyRate({ perSecond: this.config.rateLimitPerSecond, burst: this.config.rateLimitBurst }, own);
  }

  /**
   * Counts one request of an API key against its rate. The one-second window is taken from the store in
   * leases of a few requests (KeyRateLeases), so most requests cost no round trip; once the window is
   * spent, each request asks the store, whose burst allowance decides. Null when the store could not be
   * asked: the request goes through (fail open; a warning is logged), since refusing everyone would be worse.
   */
  async admitKeyRequest(keyId: string, own: { perSecond: number | null; burst: number | null }): Promise<RateDecision | null> {
    const rate = this.keyRate(own);
    const leaseKey = `${keyId}|${rate.perSecond}`;
    const now = Date.now();
    const leased = this.leases.take(leaseKey, now);
    if (leased) return admitted(rate, leased.remaining, leased.windowEndsAt - now);
    const perSecond = this.store.limiter('key', rate.perSecond, 1);
    const what = `API key ${keyId}`;
    const size = this.leases.size(leaseKey, rate.perSecond, now);
    if (size > 1) {
      const lease = await this.consume(perSecond, keyId, what, size);
      if (!lease) return null;
      const windowEndsAt = now + lease.res.msBeforeNext;
      if (lease.allowed) return admitted(rate, this.leases.granted(leaseKey, size, lease.res.remainingPoints, windowEndsAt, now).remaining, lease.res.msBeforeNext);
      this.leases.exhausted(leaseKey, windowEndsAt);
    }
    const extra = burstAllowance(rate);
    const limiter = extra > 0 ? new BurstyRateLimiter(perSecond, this.store.limiter('key-burst', extra, BURST_WINDOW_SECONDS)) : perSecond;
    const outcome = await this.consume(limiter, keyId, what);
    if (!outcome) return null;
    if (!outcome.allowed) this.metrics.rejected('api_key_rate');
    else this.leases.granted(leaseKey, 1, outcome.res.remainingPoints, now + outcome.res.msBeforeNext, now);
    return toDecision(rate, outcome.allowed, outcome.res);
  }

  /**
   * Counts a new agent run against its organisation's runs per second, or throws LimitExceededError.
   * However many keys it uses, an organisation cannot start work faster than this, which bounds the share
   * of the workers, Temporal and the database one organisation's flood can take from the others'. Taken
   * from the shared one-second window in leases, like a key's requests; fails open if the store fails.
   * An admitted run waits for its turn in the window (runStartDelayMs), so one organisation's burst
   * reaches the workers as a steady stream, not as a burst everyone's runs queue behind.
   */
  async admitRunStart(orgId: string): Promise<void> {
    const perSecond = (await this.forOrgCached(orgId)).effective.agentRunsPerSecond;
    const leaseKey = `runs|${orgId}|${perSecond}`;
    const now = Date.now();
    const leased = this.leases.take(leaseKey, now);
    if (leased) return waitForTurn(runStartDelayMs(perSecond, leased.remaining, leased.windowEndsAt, now));
    const size = this.leases.size(leaseKey, perSecond, now);
    const outcome = await this.consume(this.store.limiter('org-runs', perSecond, 1), orgId, `agent runs of organisation ${orgId}`, size);
    if (!outcome) return;
    const windowEndsAt = now + outcome.res.msBeforeNext;
    if (outcome.allowed) {
      const { remaining } = this.leases.granted(leaseKey, size, outcome.res.remainingPoints, windowEndsAt, now);
      return waitForTurn(runStartDelayMs(perSecond, remaining, windowEndsAt, now));
    }
    this.leases.exhausted(leaseKey, windowEndsAt);
    this.metrics.rejected('agent_runs_per_second');
    const retryAfter = Math.max(1, Math.ceil(outcome.res.msBeforeNext / 1000));
    throw new LimitExceededError(`this organisation may start ${perSecond} agent runs per second; retry in ${retryAfter} s`, retryAfter);
  }

  /**
   * Opens one live event stream of an API key on this process, or throws LimitExceededError past
   * EVENT_STREAMS_PER_KEY. A stream holds a connection and a listener for as long as its run lasts, so
   * the cap is on what is open, not a rate; per process, because that is where the connections are.
   * The caller must call the returned function once the stream has closed.
   */
  openEventStream(keyId: string): () => void {
    const cap = this.config.eventStreamsPerKey;
    const open = this.openStreams.get(keyId) ?? 0;
    if (open >= cap) {
      this.metrics.rejected('event_streams_per_key');
      throw new LimitExceededError(`this API key has ${open} event streams open on this server, its limit is ${cap}; close one first`);
    }
    this.openStreams.set(keyId, open + 1);
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      const left = (this.openStreams.get(keyId) ?? 1) - 1;
      if (left > 0) this.openStreams.set(keyId, left);
      else this.openStreams.delete(keyId);
    };
  }

  /** Counts a test event against the organisation's test events per minute, or throws LimitExceededError. */
  async admitTestEvent(orgId: string): Promise<void> {
    const perMinute = (await this.forOrg(orgId)).effective.testEventsPerMinute;
    const outcome = await this.consume(this.store.limiter('test-events', perMinute, 60), orgId, `test events of organisation ${orgId}`);
    if (!outcome || outcome.allowed) return;
    this.metrics.rejected('test_events_per_minute');
    const retryAfter = Math.max(1, Math.ceil(outcome.res.msBeforeNext / 1000));
    throw new LimitExceededError(`this organisation may send ${perMinute} test events per minute; retry in ${retryAfter} s`, retryAfter);
  }

  /**
   * Creates something counted against the organisation's webhook endpoint cap: `create` gets the cap and
   * either creates (atomically with its count) or answers how many endpoints there already are.
   */
  async withinWebhookEndpointCap<T>(orgId: string, create: (cap: number) => Promise<{ created: T } | { count: number }>): Promise<T> {
    const cap = (await this.forOrg(orgId)).effective.webhookEndpoints;
    const outcome = await create(cap);
    if ('created' in outcome) return outcome.created;
    this.metrics.rejected('webhook_endpoints');
    throw new LimitExceededError(`this organisation has ${outcome.count} webhook endpoints, its limit is ${cap}`);
  }

  async forOrg(orgId: string): Promise<EffectiveOrgLimits> {
    const limits = effectiveOrgLimits(orgId, this.orgDefaults(), await this.orgLimits.find(orgId));
    this.cachedOrgLimits.set(orgId, { limits, until: Date.now() + ORG_LIMITS_CACHE_MS });
    return limits;
  }

  /** The organisation's limits as read at most ORG_LIMITS_CACHE_MS ago, for what is checked on every request. */
  private async forOrgCached(orgId: string): Promise<EffectiveOrgLimits> {
    const cached = this.cachedOrgLimits.get(orgId);
    if (cached && cached.until > Date.now()) return cached.limits;
    if (this.cachedOrgLimits.size >= 10_000) this.cachedOrgLimits.clear();
    return this.forOrg(orgId);
  }

  /** Sets an organisation's overrides (a positive number, or null for the default); absent ones stay. */
  async updateOrg(orgId: string, changes: OrgLimitChanges): Promise<EffectiveOrgLimits> {
    if (Object.values(changes).every((value) => value === undefined)) return this.forOrg(orgId);
    const limits = effectiveOrgLimits(orgId, this.orgDefaults(), await this.orgLimits.update(orgId, changes));
    this.cachedOrgLimits.delete(orgId);
    return limits;
  }

  private orgDefaults(): OrgLimitValues {
    return {
      webhookEndpoints: this.config.webhookMaxEndpoints,
      testEventsPerMinute: this.config.webhookTestEventsPerMinute,
      inflightDeliveriesPerEndpoint: this.config.webhookMaxInflightPerEndpoint,
      agentRunsPerSecond: this.config.agentRunsPerSecond,
    };
  }

  /** A limiter's answer, or null when its store failed (logged without the key's secret, at most every 10 s). */
  private async consume(
    limiter: { consume(key: string, points?: number): Promise<RateLimiterRes> },
    key: string,
    what: string,
    points = 1,
  ): Promise<{ allowed: boolean; res: RateLimiterRes } | null> {
    try {
      return { allowed: true, res: await limiter.consume(key, points) };
    } catch (error) {
      if (error instanceof RateLimiterRes) return { allowed: false, res: error };
      this.metrics.storeErrors++;
      const now = Date.now();
      if (now - this.lastStoreWarning >= STORE_WARNING_INTERVAL_MS) {
        this.lastStoreWarning = now;
        const reason = error instanceof Error ? error.message : String(error);
        this.logger.warn(`rate limit store failed for ${what}; letting the request through: ${reason}`);
      }
      return null;
    }
  }
}

/**
 * Runs admitted together are paced over their second instead of starting all at once: the i-th run of
 * an organisation's one-second window (counted across API replicas by the shared window) is due i / rate
 * seconds into it. A run within the rate's pace waits for nothing.
 */
export function runStartDelayMs(perSecond: number, remainingInWindow: number, windowEndsAt: number, now: number): number {
  const index = Math.max(0, perSecond - 1 - remainingInWindow);
  const dueAt = windowEndsAt - 1_000 + (index * 1_000) / perSecond;
  return Math.max(0, Math.round(dueAt - now));
}

function waitForTurn(ms: number): Promise<void> | undefined {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : undefined;
}

function admitted(rate: KeyRate, remaining: number, msBeforeReset: number): RateDecision {
  return { allowed: true, limit: rate.perSecond, remaining, resetSeconds: Math.max(0, Math.ceil(msBeforeReset / 1000)), retryAfterSeconds: 1 };
}
