import { Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { PylonConfig } from '@pylon/config';
import { UsageRepository, type KeyRequestCount } from '@pylon/usage';

const HOUR_MS = 3_600_000;
/** Hourly counts are kept this long: the usage report reads 30 days, the rest is a margin. */
export const KEY_REQUEST_RETENTION_DAYS = 35;
/** How often the flusher also deletes counts past the retention (one statement over every organisation). */
const RETENTION_SWEEP_MS = HOUR_MS;

/** Where the counts go: UsageRepository in the API, anything with these two methods in a unit test. */
export type KeyRequestSink = Pick<UsageRepository, 'addKeyRequests' | 'deleteKeyRequestsBefore'>;

/**
 * Each authenticated request of a key adds 1 here, in memory, under the key and the hour it came in; a
 * flush adds the sums to `api_key_request_counts` in one statement for every key. A flush that fails keeps
 * its counts for the next one, so nothing counted is lost while the database is briefly away; a process
 * killed outright loses at most one interval's counts (a stopped one flushes on its way out).
 */
export class KeyRequestCounter {
  private pending = new Map<string, KeyRequestCount>();
  private flushing: Promise<void> | undefined;
  private lastSweep = 0;

  constructor(
    private readonly sink: KeyRequestSink,
    private readonly now: () => number = Date.now,
  ) {}

  record(orgId: string, keyId: string, at = this.now()): void {
    const hourMs = at - (at % HOUR_MS);
    const slot = `${keyId}|${hourMs}`;
    const counted = this.pending.get(slot);
    if (counted) counted.requests++;
    else this.pending.set(slot, { orgId, keyId, hour: new Date(hourMs), requests: 1 });
  }

  /** The requests counted and not yet written. */
  get unwritten(): number {
    let sum = 0;
    for (const count of this.pending.values()) sum += count.requests;
    return sum;
  }

  /** Writes what was counted; one flush at a time (a second caller waits for the one under way, then flushes). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.flushing = this.write().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async write(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    try {
      if (batch.size > 0) await this.sink.addKeyRequests([...batch.values()]);
    } catch (error) {
      // Back in, added to whatever was counted meanwhile: the next flush writes both.
      for (const [slot, count] of batch) {
        const newer = this.pending.get(slot);
        if (newer) newer.requests += count.requests;
        else this.pending.set(slot, count);
      }
      throw error;
    }
    const now = this.now();
    if (now - this.lastSweep >= RETENTION_SWEEP_MS) {
      this.lastSweep = now;
      await this.sink.deleteKeyRequestsBefore(new Date(now - KEY_REQUEST_RETENTION_DAYS * 24 * HOUR_MS));
    }
  }
}

/** The API process's KeyRequestCounter, flushed every API_KEY_USAGE_FLUSH_MS and before the application shuts down. */
@Injectable()
export class ApiKeyUsageCounter extends KeyRequestCounter implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(ApiKeyUsageCounter.name);
  private timer: NodeJS.Timeout | undefined;

  constructor(
    usage: UsageRepository,
    private readonly config: PylonConfig,
  ) {
    super(usage);
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flushLogged(), this.config.apiKeyUsageFlushMs);
    this.timer.unref();
  }

  /** Before the database connection closes (onApplicationShutdown), so the last counts still get written. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flushLogged();
  }

  private async flushLogged(): Promise<void> {
    try {
      await this.flush();
    } catch (error) {
      this.logger.warn({ err: error }, `could not write the API keys' request counts (${this.unwritten} requests kept for the next flush)`);
    }
  }
}
