import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Documents are replaced in place by revisions: `revision` is the latest accepted one (1 at create),
 * `ready_revision` the one whose chunks search serves (null until one is ready). Drafts belong to one
 * revision, so two revisions' ingestions never mix chunks. A replacement sent with an Idempotency-Key
 * is remembered per document, with the revision it made.
 */
export class KnowledgeRevisions1766100000000 implements MigrationInterface {
  name = 'KnowledgeRevisions1766100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE knowledge_documents ADD COLUMN revision integer NOT NULL DEFAULT 1`);
    await db.query(`ALTER TABLE knowledge_documents ADD COLUMN ready_revision integer`);
    await db.query(`UPDATE knowledge_documents SET ready_revision = 1 WHERE status = 'ready'`);
    await db.query(`ALTER TABLE knowledge_chunk_drafts ADD COLUMN revision integer NOT NULL DEFAULT 1`);
    await db.query(`ALTER TABLE knowledge_chunk_drafts DROP CONSTRAINT knowledge_chunk_drafts_pkey`);
    await db.query(`ALTER TABLE knowledge_chunk_drafts ADD PRIMARY KEY (doc_id, revision, chunk_index)`);
    await db.query(`
      CREATE TABLE knowledge_document_replacements (
        doc_id uuid NOT NULL REFERENCES knowledge_documents(id) ON DELETE CASCADE,
        org_id uuid NOT NULL,
        idempotency_key text NOT NULL,
        request_hash text NOT NULL,
        revision integer NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (doc_id, idempotency_key)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE knowledge_document_replacements`);
    await db.query(`DELETE FROM knowledge_chunk_drafts d USING knowledge_documents k WHERE k.id = d.doc_id AND d.revision <> k.revision`);
    await db.query(`ALTER TABLE knowledge_chunk_drafts DROP CONSTRAINT knowledge_chunk_drafts_pkey`);
    await db.query(`ALTER TABLE knowledge_chunk_drafts ADD PRIMARY KEY (doc_id, chunk_index)`);
    await db.query(`ALTER TABLE knowledge_chunk_drafts DROP COLUMN revision`);
    await db.query(`ALTER TABLE knowledge_documents DROP COLUMN ready_revision`);
    await db.query(`ALTER TABLE knowledge_documents DROP COLUMN revision`);
  }
}
