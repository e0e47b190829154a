import { Injectable } from '@nestjs/common';
import { toSql } from 'pgvector';
import { DataSource } from 'typeorm';

export interface DraftChunk {
  index: number;
  content: string;
  start: number;
  end: number;
}

export interface ChunkMatch {
  chunkId: string;
  docId: string;
  chunkIndex: number;
  content: string;
  score: number;
  title: string;
  metadata: Record<string, unknown>;
}

/**
 * How to search one organisation: `exact` scans only its rows (right for small organisations, which an
 * approximate index filtered afterwards would starve); otherwise the HNSW index with `efSearch`
 * candidates, and pgvector ≥ 0.8's iterative scan when available so a filtered search still fills k.
 */
export interface SearchPlan {
  exact: boolean;
  efSearch: number;
  iterativeScan: boolean;
}

@Injectable()
export class KnowledgeChunkRepository {
  constructor(private readonly db: DataSource) {}

  /** Replaces the unpublished drafts of a document (a retried attempt starts clean). */
  async replaceDrafts(docId: string, chunks: DraftChunk[]): Promise<void> {
    await this.db.transaction(async (manager) => {
      await manager.query(`DELETE FROM knowledge_chunk_drafts WHERE doc_id = $1`, [docId]);
      const rowsPerInsert = 500;
      for (let offset = 0; offset < chunks.length; offset += rowsPerInsert) {
        const slice = chunks.slice(offset, offset + rowsPerInsert);
        const values: unknown[] = [docId];
        const tuples = slice.map((chunk) => {
          values.push(chunk.index, chunk.content, chunk.start, chunk.end);
          const n = values.length;
          return `($1, $${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
        });
        await manager.query(
          `INSERT INTO knowledge_chunk_drafts (doc_id, chunk_index, content, start_offset, end_offset) VALUES ${tuples.join(', ')}`,
          values,
        );
      }
    });
  }

  async draftBatch(docId: string, fromIndex: number, count: number): Promise<Array<{ index: number; content: string }>> {
    const rows = (await this.db.query(
      `SELECT chunk_index AS index, content FROM knowledge_chunk_drafts
        WHERE doc_id = $1 AND chunk_index >= $2 AND chunk_index < $3 ORDER BY chunk_index`,
      [docId, fromIndex, fromIndex + count],
    )) as Array<{ index: number; content: string }>;
    return rows;
  }

  async saveDraftEmbeddings(docId: string, embeddings: Array<{ index: number; embedding: number[] }>): Promise<void> {
    if (embeddings.length === 0) return;
    await this.db.query(
      `UPDATE knowledge_chunk_drafts AS d SET embedding = v.embedding::vector
         FROM unnest($2::int[], $3::text[]) AS v(chunk_index, embedding)
        WHERE d.doc_id = $1 AND d.chunk_index = v.chunk_index`,
      [docId, embeddings.map((e) => e.index), embeddings.map((e) => toSql(e.embedding))],
    );
  }

  /** The installed pgvector version, e.g. "0.8.0". */
  async vectorExtensionVersion(): Promise<string | undefined> {
    const [row] = (await this.db.query(`SELECT extversion FROM pg_extension WHERE extname = 'vector'`)) as Array<{ extversion: string }>;
    return row?.extversion;
  }

  /** The dimension of the embedding column, fixed by the migration. */
  async embeddingColumnDimensions(): Promise<number | undefined> {
    const [row] = (await this.db.query(
      `SELECT atttypmod AS dims FROM pg_attribute WHERE attrelid = 'knowledge_chunks'::regclass AND attname = 'embedding'`,
    )) as Array<{ dims: number }>;
    return row?.dims;
  }

  /** Approximate number of chunks in the table: the planner's statistics, or a count before any ANALYZE. */
  async estimatedTotalChunks(): Promise<number> {
    const [row] = (await this.db.query(`SELECT reltuples::bigint AS n FROM pg_class WHERE oid = 'knowledge_chunks'::regclass`)) as Array<{ n: string }>;
    const estimate = Number(row?.n ?? -1);
    if (estimate > 0) return estimate;
    const [counted] = (await this.db.query(`SELECT count(*)::bigint AS n FROM knowledge_chunks`)) as Array<{ n: string }>;
    return Number(counted?.n ?? 0);
  }

  /**
   * The knowledge search: the organisation's `k` chunks nearest to `embedding` by cosine distance,
   * best first, with score = cosine similarity. Tuning is `SET LOCAL`, so it ends with the transaction.
   */
  async search(orgId: string, embedding: number[], k: number, plan: SearchPlan): Promise<ChunkMatch[]> {
    const limit = Math.max(1, Math.min(100, Math.floor(k)));
    const vector = toSql(embedding);
    return this.db.transaction(async (manager) => {
      let nearest: string;
      if (plan.exact) {
        // A materialized CTE cannot use the HNSW index: every row of the organisation is scored exactly.
        nearest = `
          WITH scored AS MATERIALIZED (
            SELECT id, embedding <=> $2::vector AS distance FROM knowledge_chunks WHERE org_id = $1
          )
          SELECT id, distance FROM scored ORDER BY distance LIMIT $3`;
      } else {
        await manager.query(`SELECT set_config('hnsw.ef_search', $1, true)`, [String(Math.max(plan.efSearch, limit))]);
        if (plan.iterativeScan) await manager.query(`SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)`);
        nearest = `
          WITH candidates AS MATERIALIZED (
            SELECT id, embedding <=> $2::vector AS distance FROM knowledge_chunks
             WHERE org_id = $1 ORDER BY embedding <=> $2::vector LIMIT $3
          )
          SELECT id, distance FROM candidates ORDER BY distance`;
      }
      const rows = (await manager.query(
        `SELECT c.id AS chunk_id, c.doc_id, c.chunk_index, c.content, 1 - n.distance AS score, d.title, d.metadata
           FROM (${nearest}) AS n
           JOIN knowledge_chunks c ON c.id = n.id
           JOIN knowledge_documents d ON d.id = c.doc_id
          ORDER BY n.distance, c.id`,
        [orgId, vector, limit],
      )) as Array<{ chunk_id: string; doc_id: string; chunk_index: number; content: string; score: number; title: string; metadata: Record<string, unknown> }>;
      return rows.map((row) => ({
        chunkId: row.chunk_id,
        docId: row.doc_id,
        chunkIndex: row.chunk_index,
        content: row.content,
        score: Number(row.score),
        title: row.title,
        metadata: row.metadata,
      }));
    });
  }
}
