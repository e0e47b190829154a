import { Injectable } from '@nestjs/common';
import { toSql } from 'pgvector';
import { DataSource } from 'typeorm';
import type { SearchLeg } from '@pylon/contracts';
import { indexTuningStatement, knowledgeSearchStatement, type ChunkQuery } from './knowledge-search.sql';

export interface DraftChunk {
  index: number;
  content: string;
  start: number;
  end: number;
  /** The pages (1-based) the chunk spans, for a document with pages. */
  pageStart: number | null;
  pageEnd: number | null;
}

export interface ChunkMatch {
  chunkId: string;
  docId: string;
  chunkIndex: number;
  content: string;
  score: number;
  title: string;
  metadata: Record<string, unknown>;
  pageStart: number | null;
  pageEnd: number | null;
}

export interface ChunkQueryMatch extends ChunkMatch {
  knowledgeBaseId: string;
  foundBy: SearchLeg[];
  vectorRank: number | null;
  vectorSimilarity: number | null;
  keywordRank: number | null;
  keywordScore: number | null;
}

@Injectable()
export class KnowledgeChunkRepository {
  constructor(private readonly db: DataSource) {}

  /** Replaces the unpublished drafts of one revision of a document (a retried attempt starts clean). */
  async replaceDrafts(orgId: string, docId: string, revision: number, chunks: DraftChunk[]): Promise<void> {
    await this.db.transaction(async (manager) => {
      await manager.query(`DELETE FROM knowledge_chunk_drafts WHERE doc_id = $1 AND org_id = $2 AND revision = $3`, [docId, orgId, revision]);
      const rowsPerInsert = 500;
      for (let offset = 0; offset < chunks.length; offset += rowsPerInsert) {
        const slice = chunks.slice(offset, offset + rowsPerInsert);
        const values: unknown[] = [docId, orgId, revision];
        const tuples = slice.map((chunk) => {
          values.push(chunk.index, chunk.content, chunk.start, chunk.end, chunk.pageStart, chunk.pageEnd);
          const n = values.length;
          return `($1, $2, $3, $${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
        });
        await manager.query(
          `INSERT INTO knowledge_chunk_drafts (doc_id, org_id, revision, chunk_index, content, start_offset, end_offset, page_start, page_end)
           VALUES ${tuples.join(', ')}`,
          values,
        );
      }
    });
  }

  async draftBatch(
    orgId: string,
    docId: string,
    revision: number,
    fromIndex: number,
    count: number,
  ): Promise<Array<{ index: number; content: string }>> {
    const rows = (await this.db.query(
      `SELECT chunk_index AS index, content FROM knowledge_chunk_drafts
        WHERE doc_id = $1 AND org_id = $2 AND revision = $3 AND chunk_index >= $4 AND chunk_index < $5 ORDER BY chunk_index`,
      [docId, orgId, revision, fromIndex, fromIndex + count],
    )) as Array<{ index: number; content: string }>;
    return rows;
  }

  async saveDraftEmbeddings(
    orgId: string,
    docId: string,
    revision: number,
    embeddings: Array<{ index: number; embedding: number[] }>,
  ): Promise<void> {
    if (embeddings.length === 0) return;
    await this.db.query(
      `UPDATE knowledge_chunk_drafts AS d SET embedding = v.embedding::vector
         FROM unnest($4::int[], $5::text[]) AS v(chunk_index, embedding)
        WHERE d.doc_id = $1 AND d.org_id = $2 AND d.revision = $3 AND d.chunk_index = v.chunk_index`,
      [docId, orgId, revision, embeddings.map((e) => e.index), embeddings.map((e) => toSql(e.embedding))],
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

  /**
   * One knowledge search (knowledge-search.sql.ts), with the HNSW index's tuning `SET LOCAL` in a
   * transaction when its vector leg uses the index, so that the settings end with it.
   */
  async query(orgId: string, query: ChunkQuery): Promise<{ matches: ChunkQueryMatch[]; vectorCandidates: number }> {
    const { sql, params, index } = knowledgeSearchStatement(orgId, query);
    const rows = index
      ? await this.db.transaction(async (manager) => {
          const tuning = indexTuningStatement(index);
          await manager.query(tuning.sql, tuning.params);
          return (await manager.query(sql, params)) as ChunkQueryRow[];
        })
      : ((await this.db.query(sql, params)) as ChunkQueryRow[]);
    const vectorCandidates = Number(rows[0]?.vector_candidates ?? 0);
    return { matches: rows.filter((row) => row.chunk_id !== null).map(toQueryMatch), vectorCandidates };
  }
}

interface ChunkMatchRow {
  chunk_id: string;
  doc_id: string;
  chunk_index: number;
  content: string;
  score: number;
  title: string;
  metadata: Record<string, unknown>;
  page_start: number | null;
  page_end: number | null;
}

function toChunkMatch(row: ChunkMatchRow): ChunkMatch {
  return {
    chunkId: row.chunk_id,
    docId: row.doc_id,
    chunkIndex: row.chunk_index,
    content: row.content,
    score: Number(row.score),
    title: row.title,
    metadata: row.metadata,
    pageStart: row.page_start,
    pageEnd: row.page_end,
  };
}

/** A row of `query`: a match (its chunk id null when the query matched nothing) with its legs' ranks. */
interface ChunkQueryRow extends Omit<ChunkMatchRow, 'chunk_id'> {
  vector_candidates: string;
  chunk_id: string | null;
  vector_rank: string | null;
  vector_similarity: number | null;
  keyword_rank: string | null;
  keyword_score: number | null;
  knowledge_base_id: string;
}

function toQueryMatch(row: ChunkQueryRow): ChunkQueryMatch {
  const vectorRank = row.vector_rank === null ? null : Number(row.vector_rank);
  const keywordRank = row.keyword_rank === null ? null : Number(row.keyword_rank);
  const foundBy: SearchLeg[] = [];
  if (vectorRank !== null) foundBy.push('vector');
  if (keywordRank !== null) foundBy.push('keyword');
  return {
    ...toChunkMatch(row as ChunkMatchRow),
    knowledgeBaseId: row.knowledge_base_id,
    foundBy,
    vectorRank,
    vectorSimilarity: vectorRank === null ? null : Number(row.vector_similarity),
    keywordRank,
    keywordScore: keywordRank === null ? null : Number(row.keyword_score),
  };
}
