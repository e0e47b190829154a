/**
 * The closed-loop load generator of the knowledge-search benchmark, run in a worker thread (with
 * the embedded database, PGlite serves queries on the main thread of the benchmark process).
 * `concurrency` clients each send the next request of the list as soon as their previous one is
 * answered: for `warmupSeconds` unmeasured, then for `durationSeconds` measured. Every request
 * started in the measured window counts; latencies are exact (performance.now()).
 *
 * mode `http`: POST /api/v1/knowledge/search on the API. mode `sql`: the repository's search statement
 * (knowledgeSearchStatement) through a `pg` Pool (the baseline), built once with the query vector precomputed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Pool, type PoolClient } from 'pg';
import { indexTuningStatement, type SearchPlan, type SearchStatement } from '@pylon/knowledge/repositories/knowledge-search.sql';

export interface SqlSearch {
  orgId: string;
  limit: number;
  plan: SearchPlan;
  /** The repository's statement for this search, built once (query vector precomputed). */
  statement: SearchStatement;
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

/** The repository's search statements, run as KnowledgeChunkRepository.query runs them: alone, or after the HNSW tuning in a transaction. */
export async function runSqlSearch(client: PoolClient, search: SqlSearch): Promise<Array<{ chunk_id: string; score: number }>> {
  const { sql, params, index } = search.statement;
  if (!index) return (await client.query(sql, params)).rows as Array<{ chunk_id: string; score: number }>;
  await client.query('BEGIN');
  try {
    const tuning = indexTuningStatement(index);
    await client.query(tuning.sql, tuning.params);
    const { rows } = await client.query(sql, params);
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
