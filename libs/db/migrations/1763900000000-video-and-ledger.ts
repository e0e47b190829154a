import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The token ledger (append-only entries, a balance that never goes below zero) and video generations. */
export class VideoAndLedger1763900000000 implements MigrationInterface {
  name = 'VideoAndLedger1763900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE token_balances (
        org_id uuid PRIMARY KEY REFERENCES organizations(id),
        balance bigint NOT NULL CHECK (balance >= 0),
        updated_at timestamptz NOT NULL
      )`);
    await db.query(`
      CREATE TABLE token_entries (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations(id),
        kind text NOT NULL CHECK (kind IN ('grant', 'debit', 'refund')),
        amount bigint NOT NULL CHECK (amount > 0),
        delta bigint NOT NULL,
        balance_after bigint NOT NULL CHECK (balance_after >= 0),
        reference_type text,
        reference_id uuid,
        refund_of uuid UNIQUE REFERENCES token_entries(id),
        idempotency_key text,
        reason text,
        created_at timestamptz NOT NULL,
        CHECK ((kind = 'debit') = (delta < 0)),
        CHECK ((kind = 'refund') = (refund_of IS NOT NULL))
      )`);
    await db.query(`CREATE INDEX token_entries_org_created ON token_entries (org_id, created_at DESC, id DESC)`);
    await db.query(`CREATE UNIQUE INDEX token_entries_org_idempotency ON token_entries (org_id, idempotency_key) WHERE idempotency_key IS NOT NULL`);
    await db.query(`
      CREATE FUNCTION token_entries_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'token entries are append-only';
      END $$`);
    await db.query(`
      CREATE TRIGGER token_entries_append_only BEFORE UPDATE OR DELETE ON token_entries
      FOR EACH ROW EXECUTE FUNCTION token_entries_are_append_only()`);
    await db.query(`
      CREATE TABLE video_generations (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations(id),
        parent_id uuid REFERENCES video_generations(id),
        prompt text NOT NULL,
        aspect_ratio text NOT NULL,
        expand_prompt boolean NOT NULL,
        image_url text,
        image_end_url text,
        state text NOT NULL CHECK (state IN ('pending', 'processing', 'completed', 'failed')),
        provider text NOT NULL,
        provider_job_id text,
        estimate_wait_seconds text,
        liked text,
        video_url text,
        thumbnail_url text,
        width integer,
        height integer,
        failure_reason text,
        debit_entry_id uuid REFERENCES token_entries(id),
        idempotency_key text,
        request_hash text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await db.query(`CREATE INDEX video_generations_org_created ON video_generations (org_id, created_at DESC, id DESC)`);
    await db.query(
      `CREATE UNIQUE INDEX video_generations_org_idempotency ON video_generations (org_id, idempotency_key) WHERE idempotency_key IS NOT NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE video_generations`);
    await db.query(`DROP TRIGGER token_entries_append_only ON token_entries`);
    await db.query(`DROP FUNCTION token_entries_are_append_only`);
    await db.query(`DROP TABLE token_entries`);
    await db.query(`DROP TABLE token_balances`);
  }
}
