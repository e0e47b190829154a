import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keeps each chunk's embedding in the table's own pages. pgvector's type is stored `external`: a row of
 * ~800 characters of content, its tsvector and a 384-dimension embedding exceeds PostgreSQL's 2 kB
 * TOAST threshold, and the embedding, the largest value, went out of line — so an exact search fetched
 * every one of an organisation's vectors from the TOAST table (125 ms for 20 000 rows, against 22 ms
 * inline, measured on native PostgreSQL 16; see bench/README.md). With `main`, the content and the
 * tsvector move out of line instead; they are read only for the few rows a search returns.
 * Rows written before this migration are rewritten once so that they follow the new layout.
 */
export class InlineEmbeddings1764700000000 implements MigrationInterface {
  name = 'InlineEmbeddings1764700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE knowledge_chunks ALTER COLUMN embedding SET STORAGE MAIN`);
    await db.query(`UPDATE knowledge_chunks SET embedding = embedding::text::vector`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE knowledge_chunks ALTER COLUMN embedding SET STORAGE EXTERNAL`);
  }
}
