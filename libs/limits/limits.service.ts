import { Injectable, Logger } from '@nestjs/common';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { PylonConfig } from '@pylon/config';
import { KeyRateBucketRepository } from './repositories/key-rate-bucket.repository';
import { OrgLimitsRepository, type OrgLimitChanges } from './repositories/org-limits.repository';
import { RateLimitStore } from './repositories/rate-limit-store';
import { effectiveKeyRate, type KeyRate, type RateDecision } from './key-rate';
import { KeyRateTokens } from './key-rate-tokens';
import { LimitExceededError, RetryLaterError } from './limit-errors';
import { effectiveOrgLimits, type EffectiveOrgLimits, type OrgLimitValues } from './org-limits';
import { RateLimitMetrics, type LimitName } from './rate-limit-metrics';
import { BacklogCounts, type BacklogKind } from './backlog-counts';

/** How long a process reuses an organisation's limits for what is checked on every request (an operator's change shows within this). */
const ORG_LIMITS_CACHE_MS = 5_000;

/** How often a failing rate-limit store may be logged (it would otherwise be once per request). */
const STORE_WARNING_INTERVAL_MS = 10_000;

/** A full backlog is asked to retry after this long: about what a backlog's head takes to start, on a busy machine. */
const FULL_BACKLOG_RETRY_AFTER_SECONDS = 5;

const BACKLOG_LIMITS: Record<BacklogKind, { limit: LimitName; cap: (limits: OrgLimitValues) => number; what: string }> = {
  runs: { limit: 'queued_runs', cap: (limits) => limits.queuedRuns, what: 'agent runs queued' },
  documents: { limit: 'queued_documents', cap: (limits) => limits.queuedDocuments, what: 'documents processing' },
};

/**
 * The limits, in one place: each API key's request rate (a token bucket shared by every API replica
 * through PostgreSQL), each organisation's backlog caps and dispatch weight, and its count caps —
 * webhook endpoints, test events per minute, in-flight deliveries per endpoint — with the configured
 * defaults and the operator's overrides. Work is never refused for the organisation's rate of work: it
 * waits in Temporal's task queues, dispatched by weight; only a full backlog asks the caller to wait.
 */
@Injectable()
export class LimitsService {
  private readonly logger = new Logger(LimitsService.name);
  private lastStoreWarning = 0;
  private readonly keyTokens: KeyRateTokens;
  private readonly backlogs = new BacklogCounts();
  private readonly cachedOrgLimits = new Map<string, { limits: EffectiveOrgLimits; until: number }>();
  /** Live event streams open on this process, per API key. */
  private readonly openStreams = new Map<string, number>();

  constructor(
    private readonly config: PylonConfig,
    private readonly orgLimits: OrgLimitsRepository,
    private readonly store: RateLimitStore,
    buckets: KeyRateBucketRepository,
    private readonly metrics: RateLimitMetrics,
  ) {
    this.keyTokens = new KeyRateTokens(buckets);
  }

  keyRate(own: { perSecond: number | null; burst: number | null }): KeyRate {
    return effectiveKeyRate({ perSecond: this.config.rateLimitPerSecond, burst: this.config.rateLimitBurst }, own);
  }

  /**
   * Counts one request of an API key against its token bucket. Null when the store could not be asked:
   * the request goes through (fail open; a warning is logged), since refusing everyone would be worse.
   */
  admitKeyRequest(keyId: string, own: { perSecond: number | null; burst: number | null }): RateDecision | Promise<RateDecision | null> {
    const decision = this.keyTokens.admit(keyId, this.keyRate(own));
    return decision instanceof Promise ? decision.then((taken) => this.recordKeyDecision(keyId, taken)) : this.recordKeyDecision(keyId, decision);
  }

  private recordKeyDecision<Decision extends RateDecision | null>(keyId: string, decision: Decision): Decision {
    if (!decision) this.storeFailed(`API key ${keyId}`);
    else if (!decision.allowed) this.metrics.rejected('api_key_rate');
    return decision;
  }

  /**
   * Admits one more piece of work (or `amount`, all or none) into the organisation's backlog of that
   * kind, or throws RetryLaterError when they would pass its cap. `count(upTo)` counts the backlog (stopping at `upTo`); how often it
   * is asked, and how exactly the cap holds across replicas: BacklogCounts.
   */
  async admitToBacklog(orgId: string, kind: BacklogKind, count: (upTo: number) => Promise<number>, amount = 1): Promise<void> {
    const { limit, cap: capOf, what } = BACKLOG_LIMITS[kind];
    const cap = capOf((await this.forOrgCached(orgId)).effective);
    if (amount > cap) throw new LimitExceededError(`this organisation may have at most ${cap} ${what}; ${amount} are more than that at once`);
    const queued = await this.backlogs.admit(`${kind}|${orgId}`, cap, count, amount);
    if (queued + amount <= cap) return;
    this.metrics.rejected(limit);
    const adding = amount === 1 ? '' : ` and asks for ${amount} more`;
    throw new RetryLaterError(
      `this organisation has ${queued} ${what}${adding}, its limit is ${cap}; retry once some have started`,
      FULL_BACKLOG_RETRY_AFTER_SECONDS,
    );
  }

  /** The organisation's share of dispatch while others have work waiting too (Temporal's fairness weight). */
  async dispatchWeight(orgId: string): Promise<number> {
    return (await this.forOrgCached(orgId)).effective.dispatchWeight;
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

  /** Counts a test event against the organisation's test events per minute, or throws RetryLaterError. */
  async admitTestEvent(orgId: string): Promise<void> {
    const perMinute = (await this.forOrg(orgId)).effective.testEventsPerMinute;
    const outcome = await this.consume(this.store.limiter('test-events', perMinute, 60), orgId, `test events of organisation ${orgId}`);
    if (!outcome || outcome.allowed) return;
    this.metrics.rejected('test_events_per_minute');
    const retryAfter = Math.max(1, Math.ceil(outcome.res.msBeforeNext / 1000));
    throw new RetryLaterError(`this organisation may send ${perMinute} test events per minute; retry in ${retryAfter} s`, retryAfter);
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
      dispatchWeight: 1,
      queuedRuns: this.config.maxQueuedRuns,
      queuedDocuments: this.config.maxQueuedDocuments,
    };
  }

  /** A limiter's answer, or null when its store failed. */
  private async consume(
    limiter: { consume(key: string, points?: number): Promise<RateLimiterRes> },
    key: string,
    what: string,
  ): Promise<{ allowed: boolean; res: RateLimiterRes } | null> {
    try {
      return { allowed: true, res: await limiter.consume(key, 1) };
    } catch (error) {
      if (error instanceof RateLimiterRes) return { allowed: false, res: error };
      this.storeFailed(what, error);
      return null;
    }
  }

  /** Logged without the key's secret, at most every 10 s. */
  private storeFailed(what: string, error?: unknown): void {
    this.metrics.storeErrors++;
    const now = Date.now();
    if (now - this.lastStoreWarning < STORE_WARNING_INTERVAL_MS) return;
    this.lastStoreWarning = now;
    const reason = error instanceof Error ? `: ${error.message}` : '';
    this.logger.warn(`rate limit store failed for ${what}; letting the request through${reason}`);
  }
}
