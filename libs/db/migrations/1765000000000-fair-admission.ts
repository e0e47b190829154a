import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Work is taken into a bounded backlog and dispatched by weight instead of refused at a run rate:
 * an organisation's own dispatch weight and backlog caps replace its agent runs per second; each API
 * key's request rate becomes a token bucket (one row per key, refilled at its rate up to its burst).
 */
export class FairAdmission1765000000000 implements MigrationInterface {
  name = 'FairAdmission1765000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE org_limits DROP COLUMN agent_runs_per_second`);
    await db.query(`ALTER TABLE org_limits ADD COLUMN dispatch_weight real CHECK (dispatch_weight > 0)`);
    await db.query(`ALTER TABLE org_limits ADD COLUMN queued_runs integer CHECK (queued_runs > 0)`);
    await db.query(`ALTER TABLE org_limits ADD COLUMN queued_documents integer CHECK (queued_documents > 0)`);
    await db.query(`CREATE INDEX knowledge_documents_org_processing ON knowledge_documents (org_id) WHERE status = 'processing'`);
    await db.query(
      `CREATE TABLE api_key_rate_buckets (
         key_id text PRIMARY KEY,
         tokens double precision NOT NULL,
         refilled_at timestamptz NOT NULL,
         granted integer NOT NULL
       )`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE api_key_rate_buckets`);
    await db.query(`DROP INDEX knowledge_documents_org_processing`);
    await db.query(`ALTER TABLE org_limits DROP COLUMN queued_documents`);
    await db.query(`ALTER TABLE org_limits DROP COLUMN queued_runs`);
    await db.query(`ALTER TABLE org_limits DROP COLUMN dispatch_weight`);
    await db.query(`ALTER TABLE org_limits ADD COLUMN agent_runs_per_second integer CHECK (agent_runs_per_second > 0)`);
  }
}
