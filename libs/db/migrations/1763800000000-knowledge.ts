import type { MigrationInterface, QueryRunner } from 'typeorm';
import { loadConfig } from '@pylon/config';

/**
 * Knowledge documents, their chunks with embeddings (pgvector, HNSW on cosine distance), the unpublished
 * drafts of an ingestion in progress, events, and agent version tools. The embedding dimension is the
 * deployment's EMBEDDING_DIMENSIONS at the time of this migration; start-up checks it still matches.
 */
export class Knowledge1763800000000 implements MigrationInterface {
  name = 'Knowledge1763800000000';

  async up(db: QueryRunner): Promise<void> {
    const dimensions = loadConfig().embeddingDimensions;
    await db.query(`CREATE EXTENSION IF NOT EXISTS vector`);
    await db.query(`
      CREATE TABLE knowledge_documents (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations(id),
        title text NOT NULL,
        content text NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}',
        status text NOT NULL CHECK (status IN ('processing', 'ready', 'failed')),
        failure_reason text,
        chunk_count integer NOT NULL DEFAULT 0,
        idempotency_key text,
        request_hash text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await db.query(`CREATE INDEX knowledge_documents_org_created ON knowledge_documents (org_id, created_at DESC, id DESC)`);
    await db.query(
      `CREATE UNIQUE INDEX knowledge_documents_org_idempotency ON knowledge_documents (org_id, idempotency_key) WHERE idempotency_key IS NOT NULL`,
    );
    await db.query(`
      CREATE TABLE knowledge_chunks (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL,
        doc_id uuid NOT NULL REFERENCES knowledge_documents(id) ON DELETE CASCADE,
        chunk_index integer NOT NULL,
        content text NOT NULL,
        start_offset integer NOT NULL,
        end_offset integer NOT NULL,
        embedding vector(${dimensions}) NOT NULL,
        UNIQUE (doc_id, chunk_index)
      )`);
    await db.query(`CREATE INDEX knowledge_chunks_org ON knowledge_chunks (org_id)`);
    await db.query(
      `CREATE INDEX knowledge_chunks_embedding ON knowledge_chunks USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)`,
    );
    await db.query(`
      CREATE TABLE knowledge_chunk_drafts (
        doc_id uuid NOT NULL REFERENCES knowledge_documents(id) ON DELETE CASCADE,
        chunk_index integer NOT NULL,
        content text NOT NULL,
        start_offset integer NOT NULL,
        end_offset integer NOT NULL,
        embedding vector(${dimensions}),
        PRIMARY KEY (doc_id, chunk_index)
      )`);
    await db.query(`
      CREATE TABLE events (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL,
        type text NOT NULL,
        resource_id uuid NOT NULL,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await db.query(`CREATE INDEX events_org_created ON events (org_id, created_at DESC, id DESC)`);
    await db.query(`CREATE INDEX events_resource ON events (resource_id)`);
    await db.query(`ALTER TABLE agent_versions ADD COLUMN tools jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE agent_versions DROP COLUMN tools`);
    await db.query(`DROP TABLE events`);
    await db.query(`DROP TABLE knowledge_chunk_drafts`);
    await db.query(`DROP TABLE knowledge_chunks`);
    await db.query(`DROP TABLE knowledge_documents`);
  }
}
