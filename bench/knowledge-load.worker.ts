/**
 * The closed-loop load generator of the knowledge-search benchmark, run in a worker thread (with
 * the embedded database, PGlite serves queries on the main thread of the benchmark process).
 * `concurrency` clients each send the next request of the list as soon as their previous one is
 * answered: for `warmupSeconds` unmeasured, then for `durationSeconds` measured. Every request
 * started in the measured window counts; latencies are exact (performance.now()).
 *
 * mode `http`: POST /api/v1/knowledge/search on the API. mode `sql`: the repository's search SQL
 * with the repository's statements through a `pg` Pool (the baseline), with the query vector precomputed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Pool, type PoolClient } from 'pg';

export interface SqlSearch {
  orgId: string;
  /** pgvector text form, '[0.1,0.2,…]'. */
  vector: string;
  limit: number;
  plan: { exact: boolean; efSearch: number; iterativeScan: boolean };
}

export interface LoadRequest {
  /** Label the latency is filed under (the organisation's size class). */
  label: string;
  http?: { path: string; token: string; body: string };
  sql?: SqlSearch;
}

export interface LoadJob {
  mode: 'http' | 'sql';
  baseUrl?: string;
  databaseUrl?: string;
  poolSize?: number;
  concurrency: number;
  warmupSeconds: number;
  durationSeconds: number;
  requests: LoadRequest[];
}

export interface LoadResult {
  /** Requests started in the measured window and answered successfully, per second. */
  requestsPerSecond: number;
  completed: number;
  errors: number;
  firstError?: string;
  measuredSeconds: number;
  latenciesMs: Record<string, number[]>;
}

/** The knowledge search of KnowledgeChunkRepository.search, verbatim: keep the two in step. */
export const EXACT_NEAREST = `
          WITH scored AS MATERIALIZED (
            SELECT id, embedding <=> $2::vector AS distance FROM knowledge_chunks WHERE org_id = $1
          )
          SELECT id, distance FROM scored ORDER BY distance LIMIT $3`;
export const HNSW_NEAREST = `
          WITH candidates AS MATERIALIZED (
            SELECT id, embedding <=> $2::vector AS distance FROM knowledge_chunks
             WHERE org_id = $1 ORDER BY embedding <=> $2::vector LIMIT $3
          )
          SELECT id, distance FROM candidates ORDER BY distance`;
export function searchSql(exact: boolean): string {
  return `SELECT c.id AS chunk_id, c.doc_id, c.chunk_index, c.content, 1 - n.distance AS score, d.title, d.metadata
           FROM (${exact ? EXACT_NEAREST : HNSW_NEAREST}) AS n
           JOIN knowledge_chunks c ON c.id = n.id
           JOIN knowledge_documents d ON d.id = c.doc_id
          ORDER BY n.distance, c.id`;
}

/** The repository's statements in the same order: exact search alone; HNSW with its tuning set in a transaction. */
export async function runSqlSearch(client: PoolClient, search: SqlSearch): Promise<Array<{ chunk_id: string; score: number }>> {
  const params = [search.orgId, search.vector, search.limit];
  if (search.plan.exact) return (await client.query(searchSql(true), params)).rows as Array<{ chunk_id: string; score: number }>;
  await client.query('BEGIN');
  try {
    const iterative = search.plan.iterativeScan ? `, set_config('hnsw.iterative_scan', 'relaxed_order', true)` : '';
    await client.query(`SELECT set_config('hnsw.ef_search', $1, true)${iterative}`, [String(Math.max(search.plan.efSearch, search.limit))]);
    const { rows } = await client.query(searchSql(false), params);
    await client.query('COMMIT');
    return rows as Array<{ chunk_id: string; score: number }>;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function run(job: LoadJob): Promise<LoadResult> {
  const pool = job.mode === 'sql' ? new Pool({ connectionString: job.databaseUrl, max: job.poolSize ?? 10 }) : undefined;
  const send = async (request: LoadRequest): Promise<void> => {
    if (job.mode === 'http') {
      const { path, token, body } = request.http!;
      const response = await fetch(`${job.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${text.slice(0, 300)}`);
      JSON.parse(text);
    } else {
      const client = await pool!.connect();
      try {
        await runSqlSearch(client, request.sql!);
      } finally {
        client.release();
      }
    }
  };

  const latenciesMs: Record<string, number[]> = {};
  let completed = 0;
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const started = performance.now();
  const measureFrom = started + job.warmupSeconds * 1000;
  const measureTo = measureFrom + job.durationSeconds * 1000;
  const client = async () => {
    for (;;) {
      const begin = performance.now();
      if (begin >= measureTo) return;
      const request = job.requests[next++ % job.requests.length]!;
      try {
        await send(request);
        if (begin >= measureFrom) {
          (latenciesMs[request.label] ??= []).push(performance.now() - begin);
          completed++;
        }
      } catch (error) {
        errors++;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: job.concurrency }, client));
  } finally {
    await pool?.end();
  }
  const measuredSeconds = job.durationSeconds;
  return { requestsPerSecond: completed / measuredSeconds, completed, errors, firstError, measuredSeconds, latenciesMs };
}

if (parentPort && workerData) {
  run(workerData as LoadJob).then(
    (result) => parentPort!.postMessage({ result }),
    (error: unknown) => parentPort!.postMessage({ error: error instanceof Error ? error.stack : String(error) }),
  );
}
