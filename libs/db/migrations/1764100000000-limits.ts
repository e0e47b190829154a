import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Limits: per-key rate limit overrides, per-organisation caps overriding the configured defaults
 * (null = the default), and the counters of rate-limiter-flexible's PostgreSQL store, shared by every
 * API replica. The store is told the table exists (`tableCreated`), so nothing creates tables at run time.
 */
export class Limits1764100000000 implements MigrationInterface {
  name = 'Limits1764100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE api_keys
        ADD COLUMN rate_limit_per_second integer CHECK (rate_limit_per_second > 0),
        ADD COLUMN rate_limit_burst integer CHECK (rate_limit_burst > 0)`);
    await db.query(`
      CREATE TABLE org_limits (
        org_id uuid PRIMARY KEY REFERENCES organizations(id),
        webhook_endpoints integer CHECK (webhook_endpoints > 0),
        test_events_per_minute integer CHECK (test_events_per_minute > 0),
        inflight_deliveries_per_endpoint integer CHECK (inflight_deliveries_per_endpoint > 0),
        updated_at timestamptz NOT NULL
      )`);
    // rate-limiter-flexible's schema exactly (its upsert inserts key, points, expire in this order).
    // Counters of a few seconds' worth: UNLOGGED, so they cost no WAL; a crash merely resets them.
    await db.query(`
      CREATE UNLOGGED TABLE rate_limits (
        key varchar(255) PRIMARY KEY,
        points integer NOT NULL DEFAULT 0,
        expire bigint
      )`);
    await db.query(`CREATE INDEX rate_limits_expire ON rate_limits (expire)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE rate_limits`);
    await db.query(`DROP TABLE org_limits`);
    await db.query(`ALTER TABLE api_keys DROP COLUMN rate_limit_burst, DROP COLUMN rate_limit_per_second`);
  }
}
