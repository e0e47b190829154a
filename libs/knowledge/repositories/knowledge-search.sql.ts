import type { SearchFilter, SearchMode } from '@pylon/contracts';
import { filterCondition } from './knowledge-filter.sql';
import { vectorLiteral } from '@pylon/db';

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

/** One knowledge search (`POST /knowledge/search` and `/knowledge/query`): which legs, how deep each looks, and what it keeps. */
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

/** The HNSW index's tuning, `SET LOCAL` for the one statement that uses it. */
export interface IndexTuning {
  efSearch: number;
  iterativeScan: boolean;
}

export interface SearchStatement {
  sql: string;
  params: unknown[];
  /** Present when the vector leg walks the HNSW index. */
  index?: IndexTuning;
}

/** Reciprocal rank fusion's constant (Cormack et al.): a chunk's fused score is the sum of 1 / (RRF_K + rank) over the legs. */
export const RRF_K = 60;
/** pgvector's ceiling on hnsw.ef_search. */
const MAX_EF_SEARCH = 1000;

/**
 * The one knowledge search statement, assembled from the fragments below for the legs the query uses
 * (vector, keyword or both; exact or through the HNSW index; scoped or not). Every input is a bound
 * parameter: the SQL text depends only on the query's shape, so each shape is planned like any other
 * statement. Each leg ranks up to `legDepth` candidates; hybrid fuses them by reciprocal rank fusion.
 * Scores are in [0, 1] for keyword and hybrid (ts_rank_cd normalised as rank/(rank+1); RRF divided by
 * its maximum, 2/(RRF_K+1)) and the cosine similarity for vector. Each row also carries
 * `vector_candidates`, so that the caller sees whether an HNSW leg came back short; a query with no
 * match returns one row whose `chunk_id` is null.
 */
export function knowledgeSearchStatement(orgId: string, query: ChunkQuery): SearchStatement {
  const params: unknown[] = [orgId];
  const bind = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const depth = bind(query.legDepth);
  const filter = query.filter ? `AND ${filterCondition(query.filter, params)}` : '';
  const bases = query.knowledgeBaseIds ? bind(query.knowledgeBaseIds) : undefined;
  const useVector = query.mode !== 'keyword';
  const useKeyword = query.mode !== 'vector';
  const exactVector = query.plan.exact || query.filter !== undefined;
  const legs: string[] = [];
  if (useVector) {
    if (!query.embedding) throw new Error('a vector search needs the query embedding');
    const vector = `${bind(vectorLiteral(query.embedding))}::vector`;
    const candidates = exactVector ? exactCandidates(vector, depth, bases, filter) : indexedCandidates(vector, depth, bases);
    legs.push(`vector_leg AS MATERIALIZED (
      SELECT id, distance, row_number() OVER (ORDER BY distance, id) AS rank FROM (${candidates}) AS candidates
    )`);
  }
  if (useKeyword) legs.push(...keywordLeg(bind(query.text), depth, bases, filter));
  const threshold = query.scoreThreshold === undefined ? '' : `WHERE f.score >= ${bind(query.scoreThreshold)}`;
  const vectorCount = useVector ? '(SELECT count(*) FROM vector_leg)' : '0';
  const limit = bind(query.limit);
  const sql = `WITH ${legs.join(',\n')},
     fused AS (${FUSED[query.mode]}),
     matches AS (
       SELECT c.id AS chunk_id, c.doc_id, c.chunk_index, c.content, f.score, f.vector_rank, 1 - f.distance AS vector_similarity,
              f.keyword_rank, f.keyword_score, d.title, d.metadata, d.knowledge_base_id, c.page_start, c.page_end
         FROM fused f JOIN knowledge_chunks c ON c.id = f.id JOIN knowledge_documents d ON d.id = c.doc_id
         ${threshold}
        ORDER BY f.score DESC, c.id LIMIT ${limit}
     )
     SELECT ${vectorCount} AS vector_candidates, m.* FROM (SELECT 1) AS one LEFT JOIN matches m ON true
      ORDER BY m.score DESC, m.chunk_id`;
  const index =
    useVector && !exactVector
      ? { efSearch: Math.min(MAX_EF_SEARCH, Math.max(query.plan.efSearch, query.legDepth)), iterativeScan: query.plan.iterativeScan }
      : undefined;
  return { sql, params, index };
}

/** The statement that sets the HNSW index's tuning for the rest of the transaction (`SET LOCAL`). */
export function indexTuningStatement(index: IndexTuning): { sql: string; params: unknown[] } {
  const iterative = index.iterativeScan ? `, set_config('hnsw.iterative_scan', 'relaxed_order', true)` : '';
  return { sql: `SELECT set_config('hnsw.ef_search', $1, true)${iterative}`, params: [String(index.efSearch)] };
}

/** Every row that passes the scope and filter, scored exactly: OFFSET 0 keeps the planner from using the HNSW index. */
function exactCandidates(vector: string, depth: string, bases: string | undefined, filter: string): string {
  return `SELECT id, distance FROM (
      SELECT c.id, c.embedding <=> ${vector} AS distance
        FROM knowledge_chunks c JOIN knowledge_documents d ON d.id = c.doc_id
       WHERE c.org_id = $1 ${documentScope(bases)} ${filter}
      OFFSET 0
    ) AS scored ORDER BY distance, id LIMIT ${depth}`;
}

/** The nearest chunks by the organisation's HNSW index, which orders by the bare distance; the scope is a semi-join. */
function indexedCandidates(vector: string, depth: string, bases: string | undefined): string {
  const scope = bases ? `AND c.doc_id IN (SELECT id FROM knowledge_documents WHERE org_id = $1 AND knowledge_base_id = ANY(${bases}::uuid[]))` : '';
  return `SELECT c.id, c.embedding <=> ${vector} AS distance FROM knowledge_chunks c
     WHERE c.org_id = $1 ${scope} ORDER BY c.embedding <=> ${vector} LIMIT ${depth}`;
}

/**
 * The query's stemmed words, OR-ed: a chunk matches if it shares any of them, and ts_rank_cd ranks
 * those sharing more (and closer together) higher.
 */
function keywordLeg(text: string, depth: string, bases: string | undefined, filter: string): string[] {
  return [
    `keyword_query AS (
      SELECT coalesce(string_agg('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || '''', ' | '), '')::tsquery AS q
        FROM unnest(tsvector_to_array(to_tsvector('english', ${text}))) AS lexeme
    )`,
    `keyword_leg AS MATERIALIZED (
      SELECT id, keyword_score, row_number() OVER (ORDER BY keyword_score DESC, id) AS rank FROM (
        SELECT c.id, ts_rank_cd(c.content_tsv, kq.q, 32) AS keyword_score
          FROM knowledge_chunks c JOIN knowledge_documents d ON d.id = c.doc_id CROSS JOIN keyword_query kq
         WHERE c.org_id = $1 AND c.content_tsv @@ kq.q ${documentScope(bases)} ${filter}
         ORDER BY keyword_score DESC, c.id LIMIT ${depth}
      ) AS candidates
    )`,
  ];
}

/** The legs' scope on the chunk's document (alias d). */
function documentScope(bases: string | undefined): string {
  return bases ? `AND d.knowledge_base_id = ANY(${bases}::uuid[])` : '';
}

/** Each mode's ranked candidates with one score. */
const FUSED: Record<SearchMode, string> = {
  hybrid: `SELECT coalesce(v.id, k.id) AS id, v.rank AS vector_rank, v.distance, k.rank AS keyword_rank, k.keyword_score,
                  (coalesce(1.0::float8 / (${RRF_K} + v.rank), 0) + coalesce(1.0::float8 / (${RRF_K} + k.rank), 0)) * ${(RRF_K + 1) / 2} AS score
             FROM vector_leg v FULL JOIN keyword_leg k ON k.id = v.id`,
  vector: `SELECT id, rank AS vector_rank, distance, NULL::bigint AS keyword_rank, NULL::real AS keyword_score, 1 - distance AS score FROM vector_leg`,
  keyword: `SELECT id, NULL::bigint AS vector_rank, NULL::double precision AS distance, rank AS keyword_rank, keyword_score, keyword_score AS score FROM keyword_leg`,
};
