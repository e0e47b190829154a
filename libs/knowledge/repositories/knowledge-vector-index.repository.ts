import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export type VectorIndexStatus = 'building' | 'ready' | 'failed';

export interface VectorIndexRecord {
  orgId: string;
  indexName: string;
  status: VectorIndexStatus;
  chunksAtStart: number;
  buildMs: number | null;
  error: string | null;
  updatedAt: Date;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The name of an organisation's own HNSW index (53 characters, within PostgreSQL's 63). */
export function vectorIndexName(orgId: string): string {
  if (!UUID.test(orgId)) throw new Error(`not an organisation id: ${orgId}`);
  return `knowledge_chunks_vec_${orgId.replaceAll('-', '')}`;
}

/**
 * The statement that builds an organisation's own HNSW index (a partial index of its chunks). The
 * organisation's id is a literal (DDL takes no parameters), checked to be a uuid by vectorIndexName.
 */
export function vectorIndexDdl(orgId: string, options: { m: number; efConstruction: number }): string {
  return `CREATE INDEX CONCURRENTLY IF NOT EXISTS "${vectorIndexName(orgId)}" ON knowledge_chunks
    USING hnsw (embedding vector_cosine_ops) WITH (m = ${Math.trunc(options.m)}, ef_construction = ${Math.trunc(options.efConstruction)})
    WHERE org_id = '${orgId}'`;
}

/**
 * Each large organisation's own HNSW index over its chunks (a partial index, `WHERE org_id = '…'`), and
 * the table that says which exist and whether each is ready to search with.
 */
@Injectable()
export class KnowledgeVectorIndexRepository {
  constructor(private readonly db: DataSource) {}

  async find(orgId: string): Promise<VectorIndexRecord | null> {
    const [row] = (await this.db.query(
      `SELECT org_id, index_name, status, chunks_at_start, build_ms, error, updated_at FROM knowledge_vector_indexes WHERE org_id = $1`,
      [orgId],
    )) as Array<{
      org_id: string;
      index_name: string;
      status: VectorIndexStatus;
      chunks_at_start: number;
      build_ms: number | null;
      error: string | null;
      updated_at: Date;
    }>;
    return row
      ? {
          orgId: row.org_id,
          indexName: row.index_name,
          status: row.status,
          chunksAtStart: row.chunks_at_start,
          buildMs: row.build_ms,
          error: row.error,
          updatedAt: new Date(row.updated_at),
        }
      : null;
  }

  /** Records that a build starts (again, after a failure or a crash). */
  async markBuilding(orgId: string, chunks: number): Promise<void> {
    await this.db.query(
      `INSERT INTO knowledge_vector_indexes (org_id, index_name, status, chunks_at_start, created_at, updated_at)
       VALUES ($1, $2, 'building', $3, clock_timestamp(), clock_timestamp())
       ON CONFLICT (org_id) DO UPDATE SET status = 'building', chunks_at_start = $3, build_ms = NULL, error = NULL, updated_at = clock_timestamp()`,
      [orgId, vectorIndexName(orgId), chunks],
    );
  }

  /**
   * Builds the organisation's index without blocking writes or searches (CREATE INDEX CONCURRENTLY, so
   * it cannot run in a transaction). An invalid index left by an interrupted build is dropped first.
   */
  async build(orgId: string, options: { m: number; efConstruction: number }): Promise<void> {
    const indexName = vectorIndexName(orgId);
    const [invalid] = (await this.db.query(
      `SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = $1 AND NOT i.indisvalid`,
      [indexName],
    )) as unknown[];
    if (invalid) await this.db.query(`DROP INDEX CONCURRENTLY IF EXISTS "${indexName}"`);
    await this.db.query(vectorIndexDdl(orgId, options));
  }

  async markReady(orgId: string, buildMs: number): Promise<void> {
    await this.db.query(
      `UPDATE knowledge_vector_indexes SET status = 'ready', build_ms = $2, error = NULL, updated_at = clock_timestamp() WHERE org_id = $1`,
      [orgId, Math.round(buildMs)],
    );
  }

  async markFailed(orgId: string, error: string): Promise<void> {
    await this.db.query(`UPDATE knowledge_vector_indexes SET status = 'failed', error = $2, updated_at = clock_timestamp() WHERE org_id = $1`, [
      orgId,
      error,
    ]);
  }
}
