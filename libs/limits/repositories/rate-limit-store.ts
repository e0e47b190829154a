import { Injectable } from '@nestjs/common';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { DataSource } from 'typeorm';

/** rate-limiter-flexible's table, created by migration 1764100000000-limits. */
export const RATE_LIMIT_TABLE = 'rate_limits';

/**
 * Fixed-window counters in PostgreSQL (rate-limiter-flexible's RateLimiterPostgres), shared by every API
 * replica on the same database. They run on the application's own pool (the store accepts a TypeORM
 * DataSource, `storeType: 'typeorm'`), so they work wherever the rest does — native PostgreSQL or the
 * embedded PGlite behind its socket server — and they use the migration's table (`tableCreated: true`).
 */
@Injectable()
export class RateLimitStore {
  private readonly limiters = new Map<string, RateLimiterPostgres>();
  private sweeping = false;

  constructor(private readonly db: DataSource) {}

  /** A limiter of `points` per `durationSeconds` for the keys under `keyPrefix`; one per such triple, reused. */
  limiter(keyPrefix: string, points: number, durationSeconds: number): RateLimiterPostgres {
    const id = `${keyPrefix}|${points}|${durationSeconds}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      // Overrides are few; should they ever not be, start afresh rather than grow (the counters live in the table).
      if (this.limiters.size >= 1_000) this.limiters.clear();
      limiter = new RateLimiterPostgres({
        storeClient: this.db,
        storeType: 'typeorm',
        tableName: RATE_LIMIT_TABLE,
        tableCreated: true,
        keyPrefix,
        points,
        duration: durationSeconds,
        // The first limiter of a process deletes rows expired an hour ago, every 5 minutes (an unref'd timer); the others need not.
        clearExpiredByTimeout: !this.sweeping,
      });
      this.sweeping = true;
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}
