import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every row of tenant data names its organisation: chunk drafts and webhook attempts get `org_id`,
 * back-filled from their document and delivery, so that every statement on them can be scoped.
 */
export class TenantScopedRows1765100000000 implements MigrationInterface {
  name = 'TenantScopedRows1765100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE knowledge_chunk_drafts ADD COLUMN org_id uuid`);
    await db.query(`UPDATE knowledge_chunk_drafts k SET org_id = d.org_id FROM knowledge_documents d WHERE d.id = k.doc_id`);
    await db.query(`ALTER TABLE knowledge_chunk_drafts ALTER COLUMN org_id SET NOT NULL`);
    await db.query(`ALTER TABLE webhook_attempts ADD COLUMN org_id uuid`);
    await db.query(`UPDATE webhook_attempts a SET org_id = d.org_id FROM webhook_deliveries d WHERE d.id = a.delivery_id`);
    await db.query(`ALTER TABLE webhook_attempts ALTER COLUMN org_id SET NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_attempts DROP COLUMN org_id`);
    await db.query(`ALTER TABLE knowledge_chunk_drafts DROP COLUMN org_id`);
  }
}
