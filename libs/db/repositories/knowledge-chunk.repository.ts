import { Injectable } from '@nestjs/common';
import { toSql } from 'pgvector';
import { DataSource } from 'typeorm';
import type { SearchFilter, SearchLeg, SearchMode } from '@pylon/contracts';
import { filterCondition } from './knowledge-filter.sql';
import { vectorLiteral } from '../vector-literal';

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

/**
 * How to search one organisation: `exact` scans only its rows (small organisations, and large ones
 * whose own index is not ready yet); otherwise the organisation's own HNSW index (a partial index of its
 * chunks) with `efSearch` candidates, and pgvector ≥ 0.8's iterative scan when available.
 */
export interface SearchPlan {
  exact: boolean;
  efSearch: number;
  iterativeScan: boolean;
}

/** One query of `POST /knowledge/query`: which legs, how deep each looks, and what it keeps. */
export interface ChunkQuery {
  mode: SearchMode;
  /** The query's embedding, for the vector leg. */
  embedding?: readonly number[];
  /** The query's text, for the keyword leg. */
  text: string;
  limit: number;
  /** Candidates each leg ranks before fusion. */
  legDepth: number;
  /** How the vector leg searches when no filter restricts it (a filtered vector leg is always exact). */
  plan: SearchPlan;
  filter?: SearchFilter;
  scoreThreshold?: number;
  /** Only the chunks of documents in these knowledge bases (absent: every base of the organisation). */
  knowledgeBaseIds?: readonly string[];
}

export interface ChunkQueryMatch extends ChunkMatch {
  knowledgeBaseId: string;
  foundBy: SearchLeg[];
  vectorRank: number | null;
  vectorSimilarity: number | null;
  keywordRank: number | null;
  keywordScore: number | null;
}

/** Reciprocal rank fusion's constant (Cormack et al.): a chunk's fused score is the sum of 1 / (RRF_K + rank) over the legs. */
export const RRF_K = 60;

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
   * The knowledge search: the organisation's `k` chunks nearest to `embedding` by cosine distance,
   * best first, with score = cosine similarity.
   */
  async search(orgId: string, embedding: readonly number[], k: number, plan: SearchPlan): Promise<ChunkMatch[]> {
    const limit = Math.max(1, Math.min(100, Math.floor(k)));
    // A materialized CTE cannot use the HNSW index: every row of the organisation is scored exactly.
    const nearest = plan.exact
      ? `WITH scored AS MATERIALIZED (
           SELECT id, embedding <=> $2::vector AS distance FROM knowledge_chunks WHERE org_id = $1
         )
         SELECT id, distance FROM scored ORDER BY distance LIMIT $3`
      : `WITH candidates AS MATERIALIZED (
           SELECT id, embedding <=> $2::vector AS distance FROM knowledge_chunks
            WHERE org_id = $1 ORDER BY embedding <=> $2::vector LIMIT $3
         )
         SELECT id, distance FROM candidates ORDER BY distance`;
    const rows = await this.runSearch<ChunkMatchRow>(
      `SELECT c.id AS chunk_id, c.doc_id, c.chunk_index, c.content, 1 - n.distance AS score, d.title, d.metadata, c.page_start, c.page_end
         FROM (${nearest}) AS n
         JOIN knowledge_chunks c ON c.id = n.id
         JOIN knowledge_documents d ON d.id = c.doc_id
        ORDER BY n.distance, c.id`,
      [orgId, vectorLiteral(embedding), limit],
      plan.exact ? undefined : { efSearch: Math.max(plan.efSearch, limit), iterativeScan: plan.iterativeScan },
    );
    return rows.map(toChunkMatch);
  }

  /**
   * One search statement: on its own (one round trip) when it scans exactly, or with the HNSW index's
   * tuning `SET LOCAL` in a transaction, so that the settings end with it.
   */
  private async runSearch<T>(sql: string, params: unknown[], index?: { efSearch: number; iterativeScan: boolean }): Promise<T[]> {
    if (!index) return (await this.db.query(sql, params)) as T[];
    return this.db.transaction(async (manager) => {
      const iterative = index.iterativeScan ? `, set_config('hnsw.iterative_scan', 'relaxed_order', true)` : '';
      await manager.query(`SELECT set_config('hnsw.ef_search', $1, true)${iterative}`, [String(index.efSearch)]);
      return (await manager.query(sql, params)) as T[];
    });
  }

  /**
   * Vector, keyword or hybrid search of one organisation's chunks, filtered on their documents, in one
   * statement. Each leg ranks up to `legDepth` candidates; hybrid fuses them by reciprocal rank fusion.
   * Scores are in [0, 1] for keyword and hybrid (ts_rank_cd normalised as rank/(rank+1); RRF divided by
   * its maximum, 2/(RRF_K+1)) and the cosine similarity for vector. `vectorCandidates` tells the caller
   * whether an HNSW leg came back short.
   */
  async query(orgId: string, query: ChunkQuery): Promise<{ matches: ChunkQueryMatch[]; vectorCandidates: number }> {
    const params: unknown[] = [orgId];
    const bind = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const depth = bind(query.legDepth);
    const filter = query.filter ? `AND ${filterCondition(query.filter, params)}` : '';
    const bases = query.knowledgeBaseIds ? bind(query.knowledgeBaseIds) : undefined;
    // In the legs that join the document (d), and as a semi-join on the HNSW path, which does not.
    const scope = bases ? `AND d.knowledge_base_id = ANY(${bases}::uuid[])` : '';
    const indexedScope = bases
      ? `AND c.doc_id IN (SELECT id FROM knowledge_documents WHERE org_id = $1 AND knowledge_base_id = ANY(${bases}::uuid[]))`
      : '';
    const legs: string[] = [];
    const useVector = query.mode !== 'keyword';
    const useKeyword = query.mode !== 'vector';
    const exactVector = query.plan.exact || query.filter !== undefined;
    if (useVector) {
      if (!query.embedding) throw new Error('a vector search needs the query embedding');
      const vector = `${bind(vectorLiteral(query.embedding))}::vector`;
      // OFFSET 0 keeps the planner from using the HNSW index: every row that passes the filter is scored exactly.
      const candidates = exactVector
        ? `SELECT id, distance FROM (
             SELECT c.id, c.embedding <=> ${vector} AS distance
               FROM knowledge_chunks c JOIN knowledge_documents d ON d.id = c.doc_id
              WHERE c.org_id = $1 ${scope} ${filter}
             OFFSET 0
           ) AS scored ORDER BY distance, id LIMIT ${depth}`
        : `SELECT c.id, c.embedding <=> ${vector} AS distance FROM knowledge_chunks c
            WHERE c.org_id = $1 ${indexedScope} ORDER BY c.embedding <=> ${vector} LIMIT ${depth}`;
      legs.push(`vector_leg AS MATERIALIZED (
        SELECT id, distance, row_number() OVER (ORDER BY distance, id) AS rank FROM (${candidates}) AS candidates
      )`);
    }
    if (useKeyword) {
      // The query's stemmed words, OR-ed: a chunk matches if it shares any of them, and ts_rank_cd
      // ranks those sharing more (and closer together) higher.
      legs.push(`keyword_query AS (
        SELECT coalesce(string_agg('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || '''', ' | '), '')::tsquery AS q
          FROM unnest(tsvector_to_array(to_tsvector('english', ${bind(query.text)}))) AS lexeme
      )`);
      legs.push(`keyword_leg AS MATERIALIZED (
        SELECT id, keyword_score, row_number() OVER (ORDER BY keyword_score DESC, id) AS rank FROM (
          SELECT c.id, ts_rank_cd(c.content_tsv, kq.q, 32) AS keyword_score
            FROM knowledge_chunks c JOIN knowledge_documents d ON d.id = c.doc_id CROSS JOIN keyword_query kq
           WHERE c.org_id = $1 AND c.content_tsv @@ kq.q ${scope} ${filter}
           ORDER BY keyword_score DESC, c.id LIMIT ${depth}
        ) AS candidates
      )`);
    }
    let fused: string;
    if (query.mode === 'hybrid') {
      fused = `SELECT coalesce(v.id, k.id) AS id, v.rank AS vector_rank, v.distance, k.rank AS keyword_rank, k.keyword_score,
                      (coalesce(1.0::float8 / (${RRF_K} + v.rank), 0) + coalesce(1.0::float8 / (${RRF_K} + k.rank), 0)) * ${(RRF_K + 1) / 2} AS score
                 FROM vector_leg v FULL JOIN keyword_leg k ON k.id = v.id`;
    } else if (query.mode === 'vector') {
      fused = `SELECT id, rank AS vector_rank, distance, NULL::bigint AS keyword_rank, NULL::real AS keyword_score, 1 - distance AS score FROM vector_leg`;
    } else {
      fused = `SELECT id, NULL::bigint AS vector_rank, NULL::double precision AS distance, rank AS keyword_rank, keyword_score, keyword_score AS score FROM keyword_leg`;
    }
    const threshold = query.scoreThreshold === undefined ? '' : `WHERE f.score >= ${bind(query.scoreThreshold)}`;
    const vectorCount = useVector ? '(SELECT count(*) FROM vector_leg)' : '0';
    const limit = bind(query.limit);
    const rows = await this.runSearch<ChunkQueryRow>(
      `WITH ${legs.join(',\n')},
       fused AS (${fused}),
       matches AS (
         SELECT c.id AS chunk_id, c.doc_id, c.chunk_index, c.content, f.score, f.vector_rank, 1 - f.distance AS vector_similarity,
                f.keyword_rank, f.keyword_score, d.title, d.metadata, d.knowledge_base_id, c.page_start, c.page_end
           FROM fused f JOIN knowledge_chunks c ON c.id = f.id JOIN knowledge_documents d ON d.id = c.doc_id
           ${threshold}
          ORDER BY f.score DESC, c.id LIMIT ${limit}
       )
       SELECT ${vectorCount} AS vector_candidates, m.* FROM (SELECT 1) AS one LEFT JOIN matches m ON true
        ORDER BY m.score DESC, m.chunk_id`,
      params,
      useVector && !exactVector
        ? { efSearch: Math.min(1000, Math.max(query.plan.efSearch, query.legDepth)), iterativeScan: query.plan.iterativeScan }
        : undefined,
    );
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
