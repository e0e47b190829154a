import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One HNSW index per large organisation instead of one over every organisation's chunks.
 *
 * Organisations up to KB_EXACT_SEARCH_MAX_CHUNKS are searched exactly, so the shared index served only
 * the few above it, and served them badly: it is filtered by organisation after the graph walk, so a
 * large organisation that is a small share of the table gets few of its own rows (short answers
 * without pgvector 0.8's iterative scan). It also cost every chunk of every organisation an HNSW
 * insertion at ingestion. Now an organisation that grows past the threshold gets a partial index of
 * its own chunks (`WHERE org_id = '…'`), built concurrently by a workflow (knowledge_vector_indexes
 * says which exist and whether each is ready); until it is, that organisation is searched exactly.
 */
export class OrgVectorIndexes1764900000000 implements MigrationInterface {
  name = 'OrgVectorIndexes1764900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE knowledge_vector_indexes (
        org_id uuid PRIMARY KEY REFERENCES organizations(id),
        index_name text NOT NULL UNIQUE,
        status text NOT NULL CHECK (status IN ('building', 'ready', 'failed')),
        chunks_at_start integer NOT NULL,
        build_ms integer,
        error text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await db.query(`DROP INDEX IF EXISTS knowledge_chunks_embedding`);
  }

  async down(db: QueryRunner): Promise<void> {
    const indexes = (await db.query(`SELECT index_name FROM knowledge_vector_indexes`)) as Array<{ index_name: string }>;
    for (const { index_name } of indexes) await db.query(`DROP INDEX IF EXISTS "${index_name}"`);
    await db.query(`DROP TABLE knowledge_vector_indexes`);
    await db.query(
      `CREATE INDEX knowledge_chunks_embedding ON knowledge_chunks USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)`,
    );
  }
}
