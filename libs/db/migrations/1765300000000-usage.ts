import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the usage endpoint (`GET /api/v1/usage`, libs/usage/repositories/usage.repository.ts) reads, bounded by
 * organisation and time and, for the counts, index-only: each aggregated table gets an index on
 * `(org_id, <time>)` carrying the columns its statement reads (a count reads no row, only the index and the
 * visibility map); each kind of failure a partial index of its own, so that the newest failures and the
 * failing webhook endpoints are found without walking what succeeded.
 *
 * `api_key_request_counts` holds each key's requests per hour, added to by every API process from what it
 * counted in memory (ApiKeyUsageCounter), one upsert for all keys every API_KEY_USAGE_FLUSH_MS.
 */
export class Usage1765300000000 implements MigrationInterface {
  name = 'Usage1765300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX agent_runs_org_usage ON agent_runs (org_id, created_at) INCLUDE (status, updated_at)`);
    await db.query(`CREATE INDEX agent_runs_org_cancelled ON agent_runs (org_id, created_at) WHERE status = 'failed' AND error = 'cancelled'`);
    await db.query(`CREATE INDEX knowledge_documents_org_usage ON knowledge_documents (org_id, created_at) INCLUDE (status)`);
    await db.query(`CREATE INDEX knowledge_documents_org_failed ON knowledge_documents (org_id, created_at) WHERE status = 'failed'`);
    await db.query(`CREATE INDEX video_generations_org_usage ON video_generations (org_id, created_at) INCLUDE (state)`);
    await db.query(`CREATE INDEX video_generations_org_failed ON video_generations (org_id, created_at) WHERE state = 'failed'`);
    await db.query(`CREATE INDEX webhook_deliveries_org_usage ON webhook_deliveries (org_id, created_at) INCLUDE (status)`);
    await db.query(
      `CREATE INDEX webhook_deliveries_org_failed ON webhook_deliveries (org_id, updated_at) INCLUDE (endpoint_id) WHERE status = 'failed'`,
    );
    await db.query(
      `CREATE INDEX webhook_attempts_org_failing ON webhook_attempts (org_id, started_at) INCLUDE (delivery_id)
        WHERE status_code IS NULL OR status_code < 200 OR status_code >= 300`,
    );
    await db.query(`CREATE INDEX token_entries_org_usage ON token_entries (org_id, created_at) INCLUDE (kind, amount)`);
    await db.query(`
      CREATE TABLE api_key_request_counts (
        org_id uuid NOT NULL,
        key_id uuid NOT NULL,
        hour timestamptz NOT NULL,
        requests bigint NOT NULL,
        PRIMARY KEY (key_id, hour)
      )`);
    await db.query(`CREATE INDEX api_key_request_counts_org_hour ON api_key_request_counts (org_id, hour) INCLUDE (key_id, requests)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE api_key_request_counts`);
    for (const index of [
      'token_entries_org_usage',
      'webhook_attempts_org_failing',
      'webhook_deliveries_org_failed',
      'webhook_deliveries_org_usage',
      'video_generations_org_failed',
      'video_generations_org_usage',
      'knowledge_documents_org_failed',
      'knowledge_documents_org_usage',
      'agent_runs_org_cancelled',
      'agent_runs_org_usage',
    ]) {
      await db.query(`DROP INDEX ${index}`);
    }
  }
}
