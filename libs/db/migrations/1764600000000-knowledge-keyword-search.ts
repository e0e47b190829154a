import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Full-text search over chunks for the keyword and hybrid legs of `POST /knowledge/query`: each chunk's
 * English-stemmed words, kept by PostgreSQL itself (a stored generated column) and indexed with GIN.
 */
export class KnowledgeKeywordSearch1764600000000 implements MigrationInterface {
  name = 'KnowledgeKeywordSearch1764600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE knowledge_chunks ADD COLUMN content_tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED`);
    await db.query(`CREATE INDEX knowledge_chunks_content_tsv ON knowledge_chunks USING gin (content_tsv)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX knowledge_chunks_content_tsv`);
    await db.query(`ALTER TABLE knowledge_chunks DROP COLUMN content_tsv`);
  }
}
