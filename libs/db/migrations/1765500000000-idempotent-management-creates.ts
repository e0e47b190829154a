import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Creating an agent, an agent version or a webhook endpoint takes an Idempotency-Key, as runs, documents,
 * videos and token grants do: each row keeps the key and a fingerprint of the request, unique per
 * organisation, so that a retry after a lost answer finds what the first attempt made.
 */
export class IdempotentManagementCreates1765500000000 implements MigrationInterface {
  name = 'IdempotentManagementCreates1765500000000';

  async up(db: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await db.query(`ALTER TABLE ${table} ADD COLUMN idempotency_key text, ADD COLUMN request_hash text`);
      await db.query(`CREATE UNIQUE INDEX ${table}_org_idempotency ON ${table} (org_id, idempotency_key) WHERE idempotency_key IS NOT NULL`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await db.query(`DROP INDEX ${table}_org_idempotency`);
      await db.query(`ALTER TABLE ${table} DROP COLUMN request_hash, DROP COLUMN idempotency_key`);
    }
  }
}

const TABLES = ['agents', 'agent_versions', 'webhook_endpoints'];
