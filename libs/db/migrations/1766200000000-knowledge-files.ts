import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Documents uploaded as files: the original's name, type, size and key in the media store, whether its
 * text is extracted yet, and where each page begins in that text (PDF). Chunks and their drafts carry
 * the pages they span.
 */
export class KnowledgeFiles1766200000000 implements MigrationInterface {
  name = 'KnowledgeFiles1766200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE knowledge_documents
        ADD COLUMN file_name text,
        ADD COLUMN file_type text CHECK (file_type IN ('pdf', 'docx', 'html', 'markdown', 'text')),
        ADD COLUMN file_size bigint,
        ADD COLUMN file_key text,
        ADD COLUMN text_extracted boolean NOT NULL DEFAULT true,
        ADD COLUMN page_starts integer[]`);
    await db.query(`ALTER TABLE knowledge_chunks ADD COLUMN page_start integer, ADD COLUMN page_end integer`);
    await db.query(`
      CREATE TABLE knowledge_batches (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations(id),
        status text NOT NULL CHECK (status IN ('processing', 'completed', 'cancelled')),
        document_count integer NOT NULL,
        idempotency_key text,
        request_hash text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await db.query(
      `CREATE UNIQUE INDEX knowledge_batches_org_idempotency ON knowledge_batches (org_id, idempotency_key) WHERE idempotency_key IS NOT NULL`,
    );
    await db.query(
      `ALTER TABLE knowledge_documents ADD COLUMN batch_id uuid REFERENCES knowledge_batches(id) ON DELETE SET NULL, ADD COLUMN batch_index integer`,
    );
    await db.query(`CREATE INDEX knowledge_documents_batch ON knowledge_documents (batch_id, batch_index) WHERE batch_id IS NOT NULL`);
    await db.query(`ALTER TABLE knowledge_chunk_drafts ADD COLUMN page_start integer, ADD COLUMN page_end integer`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE knowledge_chunk_drafts DROP COLUMN page_start, DROP COLUMN page_end`);
    await db.query(`ALTER TABLE knowledge_documents DROP COLUMN batch_id, DROP COLUMN batch_index`);
    await db.query(`DROP TABLE knowledge_batches`);
    await db.query(`ALTER TABLE knowledge_chunks DROP COLUMN page_start, DROP COLUMN page_end`);
    await db.query(`
      ALTER TABLE knowledge_documents
        DROP COLUMN file_name, DROP COLUMN file_type, DROP COLUMN file_size, DROP COLUMN file_key,
        DROP COLUMN text_extracted, DROP COLUMN page_starts`);
  }
}
