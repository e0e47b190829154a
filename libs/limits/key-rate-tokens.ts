import type { BucketTake } from './repositories/key-rate-bucket.repository';
import { toDecision, type KeyRate, type RateDecision } from './key-rate';

/** The most tokens one API process takes ahead of its requests. */
const MAX_PREFETCH = 64;
/** Ahead of its requests, a process takes at most this share of the key's rate… */
const PREFETCH_SHARE_OF_RATE = 0.1;
/** …and of what the bucket held at its last take, so it takes nothing ahead once the bucket runs low. */
const PREFETCH_SHARE_OF_LEVEL = 0.25;
/** Tokens taken ahead and not used by then are dropped, so a process cannot sit on a key's requests. */
const PREFETCH_LIFETIME_MS = 1_000;
const MAX_TRACKED_KEYS = 10_000;

export interface TokenBucketStore {
  take(keyId: string, burst: number, ratePerSecond: number, wanted: number): Promise<BucketTake>;
}

type Answer = (decision: RateDecision | null) => void;

interface KeyTokens {
  rate: KeyRate;
  /** Tokens this process took ahead of its requests, usable until `pooledUntil`. */
  pooled: number;
  pooledUntil: number;
  /** The bucket's level at this process's last take. */
  bucketLevel: number;
  /**
   * Until then (performance.now()) the bucket holds no whole token: the last take left less than one, only
   * time refills it, and other replicas only take from it. Requests are refused here meanwhile, without
   * asking the store.
   */
  emptyUntil: number;
  /** Requests waiting for the take under way. */
  waiting: Answer[];
  taking: boolean;
}

/**
 * An API process's side of the keys' token buckets (KeyRateBucketRepository). Requests of one key that
 * arrive together wait for one take from the bucket, which asks for all of them at once (plus a few
 * ahead while the bucket is full, so that a steady stream mostly costs no round trip): the store grants
 * what it holds and no more, so a burst of up to `burst` requests is let through exactly, and no request
 * is refused while the bucket still holds a token. Across replicas, the tokens one process took ahead
 * (at most a tenth of the rate, none once the bucket runs low, dropped after a second) are what another
 * replica may be refused early. A bucket that a take left empty refuses in this process until its next
 * token is due, so a client that keeps sending past its rate costs the store nothing.
 */
export class KeyRateTokens {
  private readonly keys = new Map<string, KeyTokens>();

  constructor(private readonly store: TokenBucketStore) {}

  /**
   * Lets one request of the key through or not: at once from the tokens this process took ahead (no
   * promise: the API's hottest path), else by a promise of the store's answer, null when it could not be asked.
   */
  admit(keyId: string, rate: KeyRate): RateDecision | Promise<RateDecision | null> {
    const key = this.stateOf(keyId, rate);
    const now = Date.now();
    if (key.pooled > 0 && key.pooledUntil > now && key.waiting.length === 0) {
      key.pooled--;
      return toDecision(rate, true, key.bucketLevel + key.pooled);
    }
    const at = performance.now();
    // The level now: one token short of what it holds when the token is due.
    if (key.emptyUntil > at) return toDecision(rate, false, 1 - ((key.emptyUntil - at) / 1000) * rate.perSecond);
    return new Promise<RateDecision | null>((answer) => {
      key.waiting.push(answer);
      if (!key.taking) void this.take(keyId, key);
    });
  }

  private stateOf(keyId: string, rate: KeyRate): KeyTokens {
    let key = this.keys.get(keyId);
    if (!key) {
      if (this.keys.size >= MAX_TRACKED_KEYS) this.dropIdleKeys();
      key = { rate, pooled: 0, pooledUntil: 0, bucketLevel: rate.burst, emptyUntil: 0, waiting: [], taking: false };
      this.keys.set(keyId, key);
    }
    // A changed rate refills at another pace: the store is asked again.
    if (key.rate.perSecond !== rate.perSecond || key.rate.burst !== rate.burst) key.emptyUntil = 0;
    key.rate = rate;
    return key;
  }

  /** One take for every request waiting, then again for those that came meanwhile. */
  private async take(keyId: string, key: KeyTokens): Promise<void> {
    key.taking = true;
    try {
      while (key.waiting.length > 0) {
        this.serveFromPool(key);
        if (key.waiting.length === 0) break;
        const batch = key.waiting.splice(0);
        const { rate } = key;
        const ahead = Math.min(
          MAX_PREFETCH,
          Math.floor(rate.perSecond * PREFETCH_SHARE_OF_RATE),
          Math.floor(key.bucketLevel * PREFETCH_SHARE_OF_LEVEL),
        );
        let taken: BucketTake;
        // The store's level is at least as recent as this, so the token it says is due comes no sooner than counted from here.
        const sentAt = performance.now();
        try {
          taken = await this.store.take(keyId, rate.burst, rate.perSecond, batch.length + ahead);
        } catch {
          for (const answer of batch) answer(null);
          continue;
        }
        const letThrough = Math.min(batch.length, taken.granted);
        key.pooled = taken.granted - letThrough;
        key.pooledUntil = Date.now() + PREFETCH_LIFETIME_MS;
        key.bucketLevel = taken.tokens;
        key.emptyUntil = taken.tokens < 1 ? sentAt + ((1 - taken.tokens) / rate.perSecond) * 1000 : 0;
        batch.forEach((answer, i) => answer(toDecision(rate, i < letThrough, taken.tokens + (i < letThrough ? letThrough - 1 - i : 0) + key.pooled)));
      }
    } finally {
      key.taking = false;
    }
  }

  private serveFromPool(key: KeyTokens): void {
    if (key.pooledUntil <= Date.now()) key.pooled = 0;
    while (key.pooled > 0 && key.waiting.length > 0) {
      key.pooled--;
      key.waiting.shift()!(toDecision(key.rate, true, key.bucketLevel + key.pooled));
    }
  }

  private dropIdleKeys(): void {
    for (const [keyId, key] of this.keys) if (!key.taking && key.waiting.length === 0) this.keys.delete(keyId);
  }
}
