import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Knowledge bases: an organisation's documents are grouped in named bases, each document in exactly one.
 * Every organisation that has documents gets a base named `Default`, which takes them all; an
 * organisation's default base is its oldest (by created_at, id), so it is computed, not stored.
 */
export class KnowledgeBases1766000000000 implements MigrationInterface {
  name = 'KnowledgeBases1766000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE knowledge_bases (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations(id),
        name text NOT NULL,
        description text,
        idempotency_key text,
        request_hash text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT knowledge_bases_org_name UNIQUE (org_id, name)
      )`);
    await db.query(`CREATE INDEX knowledge_bases_org_created ON knowledge_bases (org_id, created_at DESC, id DESC)`);
    await db.query(
      `CREATE UNIQUE INDEX knowledge_bases_org_idempotency ON knowledge_bases (org_id, idempotency_key) WHERE idempotency_key IS NOT NULL`,
    );
    await db.query(`ALTER TABLE knowledge_documents ADD COLUMN knowledge_base_id uuid REFERENCES knowledge_bases(id)`);
    // Milliseconds, as the application writes them, so that a list cursor round-trips exactly.
    await db.query(`
      INSERT INTO knowledge_bases (id, org_id, name, description, created_at, updated_at)
      SELECT gen_random_uuid(), o.org_id, 'Default', NULL, date_trunc('milliseconds', now()), date_trunc('milliseconds', now())
        FROM (SELECT DISTINCT org_id FROM knowledge_documents) AS o
      ON CONFLICT (org_id, name) DO NOTHING`);
    await db.query(`
      UPDATE knowledge_documents d SET knowledge_base_id = b.id
        FROM knowledge_bases b WHERE b.org_id = d.org_id AND b.name = 'Default' AND d.knowledge_base_id IS NULL`);
    await db.query(`ALTER TABLE knowledge_documents ALTER COLUMN knowledge_base_id SET NOT NULL`);
    await db.query(`CREATE INDEX knowledge_documents_org_base ON knowledge_documents (org_id, knowledge_base_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX knowledge_documents_org_base`);
    await db.query(`ALTER TABLE knowledge_documents DROP COLUMN knowledge_base_id`);
    await db.query(`DROP TABLE knowledge_bases`);
  }
}
