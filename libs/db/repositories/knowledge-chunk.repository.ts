import { Injectable } from '@nestjs/common';
import { toSql } from 'pgvector';
import { DataSource } from 'typeorm';
import type { SearchFilter, SearchMode } from '@pylon/contracts';
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

/**
 * How the vector leg searches one organisation: `exact` scans only its rows (small organisations, and
 * large ones whose own index is not ready yet); otherwise the organisation's own HNSW index (a partial
 * index of its chunks) with `efSearch` candidates, and pgvector ≥ 0.8's iterative scan when available.
 */
export interface SearchPlan {
  exact: boolean;
  efSearch: number;
  iterativeScan: boolean;
}

/**
 * One run of SEARCH. Every choice is its caller's (libs/knowledge's search service); the statement only
 * runs them. A leg runs when its input is given, and ranks up to `legDepth` candidates.
 */
export interface ChunkSearch {
  /** The vector leg's query embedding. */
  embedding: readonly number[] | null;
  /** The keyword leg's query text (its stemmed words, OR-ed). */
  text: string | null;
  /**
   * What orders the matches (and what `scoreThreshold` applies to): the cosine similarity (`vector`), the
   * keyword score (`keyword`), or reciprocal rank fusion of both legs' ranks with the constant `rrfK`,
   * divided by its maximum (`hybrid`).
   */
  score: SearchMode;
  rrfK: number;
  legDepth: number;
  limit: number;
  /** The HNSW index's settings for the vector leg; null: every candidate scored exactly. */
  index: { efSearch: number; iterativeScan: boolean } | null;
  /** Only the chunks of documents in these knowledge bases (null: every base of the organisation). */
  knowledgeBaseIds: readonly string[] | null;
  /** Only the chunks of documents the filter matches (the database's knowledge_filter_matches). */
  filter: SearchFilter | null;
  scoreThreshold: number | null;
}

/** A match of SEARCH with each leg's rank and score (null for a leg that did not find it). */
export interface ChunkSearchRow {
  chunkId: string;
  docId: string;
  knowledgeBaseId: string;
  chunkIndex: number;
  content: string;
  title: string;
  metadata: Record<string, unknown>;
  pageStart: number | null;
  pageEnd: number | null;
  score: number;
  vectorRank: number | null;
  vectorSimilarity: number | null;
  keywordRank: number | null;
  keywordScore: number | null;
}

/**
 * The knowledge search: one fixed statement, its every input a parameter. Its legs read only the chunks
 * of the documents in scope (`scope`: the bases and the filter, when either is given). The vector leg
 * scores every candidate exactly (OFFSET 0 keeps the planner from the index) or takes the HNSW index's
 * nearest; the keyword leg ranks by ts_rank_cd (normalised as rank/(rank+1)). A branch a call does not
 * use is constant-false for its parameters (each call is planned with its values) and never runs. The
 * first column counts the vector leg's candidates, so the caller sees when an HNSW leg came back short;
 * a search that matched nothing is one row with a null chunk_id.
 *
 * $1 org, $2 embedding, $3 text, $4 score, $5 rrfK, $6 legDepth, $7 limit, $8 exact, $9 knowledge base
 * ids, $10 filter, $11 score threshold (as text, read as the score's own type: real for the keyword score).
 */
const SEARCH = `WITH scope AS MATERIALIZED (
    SELECT id FROM knowledge_documents
     WHERE org_id = $1 AND ($9::uuid[] IS NULL OR knowledge_base_id = ANY($9::uuid[]))
       AND ($10::jsonb IS NULL OR knowledge_filter_matches($10::jsonb, title, metadata))
  ), vector_leg AS MATERIALIZED (
    SELECT id, distance, row_number() OVER (ORDER BY distance, id) AS rank FROM (
      (SELECT id, distance FROM (
         SELECT c.id, c.embedding <=> $2::vector AS distance FROM knowledge_chunks c
          WHERE $2::vector IS NOT NULL AND $8::boolean AND c.org_id = $1
            AND (($9::uuid[] IS NULL AND $10::jsonb IS NULL) OR c.doc_id IN (SELECT id FROM scope))
         OFFSET 0
       ) AS scored ORDER BY distance, id LIMIT $6)
      UNION ALL
      (SELECT c.id, c.embedding <=> $2::vector AS distance FROM knowledge_chunks c
        WHERE $2::vector IS NOT NULL AND NOT $8::boolean AND c.org_id = $1
          AND (($9::uuid[] IS NULL AND $10::jsonb IS NULL) OR c.doc_id IN (SELECT id FROM scope))
        ORDER BY c.embedding <=> $2::vector LIMIT $6)
    ) AS candidates
  ), keyword_query AS (
    SELECT coalesce(string_agg('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || '''', ' | '), '')::tsquery AS q
      FROM unnest(tsvector_to_array(to_tsvector('english', $3::text))) AS lexeme
  ), keyword_leg AS MATERIALIZED (
    SELECT id, keyword_score, row_number() OVER (ORDER BY keyword_score DESC, id) AS rank FROM (
      SELECT c.id, ts_rank_cd(c.content_tsv, kq.q, 32) AS keyword_score
        FROM knowledge_chunks c CROSS JOIN keyword_query kq
       WHERE $3::text IS NOT NULL AND c.org_id = $1 AND c.content_tsv @@ kq.q
         AND (($9::uuid[] IS NULL AND $10::jsonb IS NULL) OR c.doc_id IN (SELECT id FROM scope))
       ORDER BY keyword_score DESC, c.id LIMIT $6
    ) AS candidates
  ), fused AS (
    SELECT coalesce(v.id, k.id) AS id, v.rank AS vector_rank, v.distance, k.rank AS keyword_rank, k.keyword_score,
           CASE $4::text
             WHEN 'hybrid' THEN
               (coalesce(1.0::float8 / ($5::int + v.rank), 0) + coalesce(1.0::float8 / ($5::int + k.rank), 0)) * (($5::int + 1) / 2.0::float8)
             WHEN 'vector' THEN 1 - v.distance
             -- The real as its text reads, so that the score equals the keyword_score a client reads.
             ELSE k.keyword_score::text::float8
           END AS score
      FROM vector_leg v FULL JOIN keyword_leg k ON k.id = v.id
  ), matches AS (
    SELECT c.id AS chunk_id, c.doc_id, c.chunk_index, c.content, f.score, f.vector_rank, 1 - f.distance AS vector_similarity,
           f.keyword_rank, f.keyword_score, d.title, d.metadata, d.knowledge_base_id, c.page_start, c.page_end
      FROM fused f JOIN knowledge_chunks c ON c.id = f.id JOIN knowledge_documents d ON d.id = c.doc_id
     WHERE $11::text IS NULL
        OR CASE WHEN $4::text = 'keyword' THEN f.keyword_score >= $11::text::real ELSE f.score >= $11::text::float8 END
     ORDER BY f.score DESC, c.id LIMIT $7
  )
  SELECT (SELECT count(*) FROM vector_leg) AS vector_candidates, m.* FROM (SELECT 1) AS one LEFT JOIN matches m ON true
   ORDER BY m.score DESC, m.chunk_id`;

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
   * Runs SEARCH: on its own (one round trip) when the vector leg scans exactly or is absent, or with the
   * HNSW index's tuning `SET LOCAL` in a transaction, so that the settings end with it. The matches, best
   * first, and how many candidates the vector leg found.
   */
  async search(orgId: string, search: ChunkSearch): Promise<{ matches: ChunkSearchRow[]; vectorCandidates: number }> {
    const parameters = [
      orgId,
      search.embedding ? vectorLiteral(search.embedding) : null,
      search.text,
      search.score,
      search.rrfK,
      search.legDepth,
      search.limit,
      search.index === null,
      search.knowledgeBaseIds,
      search.filter ? JSON.stringify(search.filter) : null,
      search.scoreThreshold === null ? null : String(search.scoreThreshold),
    ];
    const index = search.embedding ? search.index : null;
    const rows = index
      ? await this.db.transaction(async (manager) => {
          const iterative = index.iterativeScan ? `, set_config('hnsw.iterative_scan', 'relaxed_order', true)` : '';
          await manager.query(`SELECT set_config('hnsw.ef_search', $1, true)${iterative}`, [String(index.efSearch)]);
          return (await manager.query(SEARCH, parameters)) as SearchRow[];
        })
      : ((await this.db.query(SEARCH, parameters)) as SearchRow[]);
    return { matches: rows.flatMap(toSearchRow), vectorCandidates: Number(rows[0]?.vector_candidates ?? 0) };
  }
}

/** A row of SEARCH: a match (its chunk id null when the search matched nothing) with its legs' ranks. */
interface SearchRow {
  vector_candidates: string;
  chunk_id: string | null;
  doc_id: string;
  knowledge_base_id: string;
  chunk_index: number;
  content: string;
  title: string;
  metadata: Record<string, unknown>;
  page_start: number | null;
  page_end: number | null;
  score: number;
  vector_rank: string | null;
  vector_similarity: number | null;
  keyword_rank: string | null;
  keyword_score: number | null;
}

function toSearchRow(row: SearchRow): ChunkSearchRow[] {
  if (row.chunk_id === null) return [];
  const orNull = (value: string | number | null) => (value === null ? null : Number(value));
  return [
    {
      chunkId: row.chunk_id,
      docId: row.doc_id,
      knowledgeBaseId: row.knowledge_base_id,
      chunkIndex: row.chunk_index,
      content: row.content,
      title: row.title,
      metadata: row.metadata,
      pageStart: row.page_start,
      pageEnd: row.page_end,
      score: Number(row.score),
      vectorRank: orNull(row.vector_rank),
      vectorSimilarity: orNull(row.vector_similarity),
      keywordRank: orNull(row.keyword_rank),
      keywordScore: orNull(row.keyword_score),
    },
  ];
}
