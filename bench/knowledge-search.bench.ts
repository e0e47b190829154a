/**
 * Knowledge search at scale: BENCH_KB_CHUNKS (default 100 000) chunks of 384 dimensions (local
 * lexical embedder) across BENCH_KB_ORGS (default 50) organisations of skewed sizes, four of which
 * hold ~0.1%, ~1%, ~10% and ~50% of the chunks (knowledge-corpus.ts).
 *
 * 1. Ingestion through the real API and ingestion workflow (own API + worker with KB_CHUNK_SIZE=1000,
 *    KB_CHUNK_OVERLAP=0, so every paragraph is one chunk): chunks/s from the first POST until every
 *    document is ready, with bounded POST concurrency and a bound on documents in flight.
 * 2. Search through POST /api/v1/knowledge/search: closed-loop clients (worker thread) at a fixed
 *    concurrency, mixed across the four class organisations and per class.
 * 3. Recall@6 against exact search per class: what the API returns, and the HNSW index path forced
 *    (the repository's non-exact SQL with the planner's ef_search and with 40, iterative scan when
 *    pgvector has it), with how often fewer than 6 rows came back.
 * 4. Baseline: the same SQL, same plan, through a `pg` Pool with precomputed query vectors, at the
 *    same concurrency.
 *
 * `knowledge-search-clustered` runs the same with sentence-embedding-like vectors instead
 * (clustered-embeddings.ts), served to the API's OpenAI provider by a local OpenAI-compatible server.
 */
import { loadConfig } from '@pylon/config';
import { knowledgeSearchStatement, vectorIndexDdl, type SearchPlan } from '@pylon/knowledge';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool, type PoolClient } from 'pg';
import { LocalLexicalEmbedder } from '@pylon/embeddings/local-lexical-embedder';
import { chunkText } from '@pylon/knowledge/chunking';
import { planSearch, supportsIterativeScan } from '@pylon/knowledge/search-planner';
import { Http } from '../test/support/http';
import { Stack } from '../test/support/stack';
import { createKey, createOrg } from '../test/support/tenant';
import {
  CHUNK_OVERLAP,
  CHUNK_SIZE,
  Corpus,
  DEFAULT_CORPUS,
  SIZE_CLASSES,
  mixSeed,
  planOrganisations,
  prng,
  type OrgPlan,
  type SizeClass,
} from './knowledge-corpus';
import { CLUSTERED_EMBEDDINGS_ID, ClusteredEmbeddings, serveEmbeddings, similarityProfile } from './clustered-embeddings';
import { startBaselineServer } from './baseline-server';
import { runSqlSearch, type LoadJob, type LoadRequest, type LoadResult, type SqlSearch } from './knowledge-load.worker';
import {
  BENCH_LIMITS_ENV,
  envInt,
  log,
  mean,
  percentile,
  round,
  sleep,
  summarize,
  type BenchContext,
  type Benchmark,
  type BenchReport,
  type Grid,
  type Row,
} from './support';

const DIMENSIONS = 384;
const K = 6;
const FULL_SIZE = 100_000;
/** The product's default threshold (KB_EXACT_SEARCH_MAX_CHUNKS), which a reduced run scales with the table. */
const DEFAULT_EXACT_MAX = loadConfig({}).kbExactSearchMaxChunks;
const MIN_EF_SEARCH = 40;
/** The product's own-index parameters (KnowledgeVectorIndexService), unless BENCH_KB_HNSW_M / _EF_CONSTRUCTION try others. */
const HNSW_M = envInt('BENCH_KB_HNSW_M', 16);
const HNSW_EF_CONSTRUCTION = envInt('BENCH_KB_HNSW_EF_CONSTRUCTION', 64);
const WIDE_EF_SEARCH = envInt('BENCH_KB_WIDE_EF', 400);
const POOL_SIZE = 10; // the API's DB_POOL_SIZE default
const TIE_EPSILON = 1e-6;

interface Params {
  totalChunks: number;
  orgs: number;
  maxChunksPerDocument: number;
  seed: number;
  exactMaxChunks: number;
  postConcurrency: number;
  maxDocumentsInFlight: number;
  queriesPerClass: number;
  concurrency: number;
  searchSeconds: number;
  warmupSeconds: number;
}

function readParams(): Params {
  const totalChunks = envInt('BENCH_KB_CHUNKS', FULL_SIZE);
  return {
    totalChunks,
    orgs: envInt('BENCH_KB_ORGS', 50),
    maxChunksPerDocument: envInt('BENCH_KB_CHUNKS_PER_DOC', 80),
    seed: envInt('BENCH_KB_SEED', DEFAULT_CORPUS.seed),
    // Scaled with the size, so a reduced run plans its 50% organisation like the full one (HNSW) and the others exactly.
    exactMaxChunks: envInt('BENCH_KB_EXACT_MAX', Math.max(1, Math.round((DEFAULT_EXACT_MAX * totalChunks) / FULL_SIZE))),
    postConcurrency: envInt('BENCH_KB_POST_CONCURRENCY', 4),
    maxDocumentsInFlight: envInt('BENCH_KB_IN_FLIGHT', 32),
    queriesPerClass: envInt('BENCH_KB_QUERIES', 50),
    concurrency: envInt('BENCH_KB_CONCURRENCY', 10),
    searchSeconds: envInt('BENCH_KB_SEARCH_SECONDS', 8),
    warmupSeconds: envInt('BENCH_KB_WARMUP_SECONDS', 2),
  };
}

interface Tenant {
  plan: OrgPlan;
  orgId: string;
  key: string;
}

interface Query {
  text: string;
  /** Frozen, as the API's query-embedding cache hands it out. */
  embedding: readonly number[];
  /** The paragraph the query's words come from: its document's title and its chunk index. */
  source: { title: string; chunkIndex: number };
}

interface Hit {
  id: string;
  distance: number;
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

function runLoad(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(join(__dirname, 'knowledge-load.worker.js'), { workerData: job });
    worker.once('message', (message: { result?: LoadResult; error?: string }) => {
      if (message.result) resolve(message.result);
      else reject(new Error(`load worker failed: ${message.error}`));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load worker exited with ${code}`));
    });
  });
}

/** Share of the exact top k (ties at the k-th distance count) among the rows returned. */
function recallAt(returned: Hit[], truth: Hit[], k: number): number {
  const expected = Math.min(k, truth.length);
  if (expected === 0) return 1;
  const cutoff = truth[expected - 1]!.distance + TIE_EPSILON;
  const ids = new Set(truth.slice(0, expected).map((hit) => hit.id));
  const hits = returned.slice(0, k).filter((hit) => ids.has(hit.id) || hit.distance <= cutoff).length;
  return Math.min(hits, expected) / expected;
}

/** The search, optionally with every sort disabled so that only the HNSW index can give the order. */
async function sqlSearch(client: PoolClient, search: SqlSearch, forceIndex = false): Promise<Hit[]> {
  if (!forceIndex) return (await runSqlSearch(client, search)).map((row) => ({ id: row.chunk_id, distance: 1 - Number(row.score) }));
  await client.query('BEGIN');
  try {
    await client.query(`SELECT set_config('enable_sort', 'off', true)`);
    await client.query(`SELECT set_config('hnsw.ef_search', $1, true)`, [String(Math.max(search.plan.efSearch, search.limit))]);
    if (search.plan.iterativeScan) await client.query(`SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)`);
    const { rows } = await client.query(search.statement.sql, search.statement.params);
    await client.query('COMMIT');
    return rows.map((row: { chunk_id: string; score: number }) => ({ id: row.chunk_id, distance: 1 - Number(row.score) }));
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Whether the repository's non-exact search SQL uses the HNSW index (EXPLAIN, nothing run). */
async function usesHnsw(client: PoolClient, search: SqlSearch, forceIndex: boolean): Promise<{ hnsw: boolean; topNode: string }> {
  await client.query('BEGIN');
  try {
    if (forceIndex) await client.query(`SELECT set_config('enable_sort', 'off', true)`);
    await client.query(`SELECT set_config('hnsw.ef_search', $1, true)`, [String(Math.max(search.plan.efSearch, search.limit))]);
    const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${search.statement.sql}`, search.statement.params);
    await client.query('COMMIT');
    const plan = JSON.stringify(rows[0]['QUERY PLAN']);
    const nodes = [...plan.matchAll(/"Node Type":"([^"]+)"(?:[^{}]*?"Index Name":"([^"]+)")?/g)].map((m) => (m[2] ? `${m[1]} on ${m[2]}` : m[1]));
    return { hnsw: plan.includes('knowledge_chunks_vec_'), topNode: nodes.join(' → ') };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

function latencyFigures(values: number[]) {
  const s = summarize(values);
  return { count: s.count, p50: s.p50, p90: s.p90, p99: s.p99, mean: s.mean, max: s.max };
}

/** Which vectors the corpus gets: the product's local lexical embedder, or the clustered model served as OpenAI. */
type EmbeddingKind = 'lexical' | 'clustered';

/** A query's vector, as the API's embedder would make it, and what to call the embedder in the report. */
interface QueryEmbedder {
  id: string;
  embedOne(text: string): number[];
}

export const knowledgeSearchBenchmark: Benchmark = {
  name: 'knowledge-search',
  description:
    'Knowledge ingestion (API + workflow) and POST /api/v1/knowledge/search over many organisations of skewed sizes, recall@6 vs exact search, vs the same search SQL through pg',
  // Ingestion dominates: 100 000 chunks take ~5 minutes on 2 cores with native PostgreSQL, several times that on PGlite.
  budgetMinutes: () => 8 + (30 * envInt('BENCH_KB_CHUNKS', FULL_SIZE)) / FULL_SIZE,
  run: (context) => runKnowledgeSearch(context, 'lexical'),
};

export const knowledgeSearchClusteredBenchmark: Benchmark = {
  name: 'knowledge-search-clustered',
  description:
    'The knowledge-search benchmark with sentence-embedding-like vectors (topic clusters in domains, a common direction, content words), served to the API as OpenAI embeddings by a local server',
  budgetMinutes: knowledgeSearchBenchmark.budgetMinutes,
  run: (context) => runKnowledgeSearch(context, 'clustered'),
};

async function runKnowledgeSearch(context: BenchContext, embeddingKind: EmbeddingKind): Promise<BenchReport> {
  const params = readParams();
  const corpus = new Corpus({ ...DEFAULT_CORPUS, seed: params.seed });
  const clustered = embeddingKind === 'clustered' ? new ClusteredEmbeddings(corpus, DIMENSIONS) : undefined;
  const embeddingServer = clustered ? await serveEmbeddings(clustered) : undefined;
  const lexical = new LocalLexicalEmbedder(DIMENSIONS);
  const embedder: QueryEmbedder = clustered
    ? { id: `${CLUSTERED_EMBEDDINGS_ID} (served to the API as openai/text-embedding-3-small)`, embedOne: (text) => clustered.embed(text) }
    : { id: lexical.id, embedOne: (text) => lexical.embedOne(text) };
  const orgPlans = planOrganisations(params.totalChunks, params.orgs, params.maxChunksPerDocument);
  const documentCount = orgPlans.reduce((sum, org) => sum + org.documents.length, 0);
  log(
    `${params.totalChunks} chunks in ${documentCount} documents across ${params.orgs} organisations; classes ` +
      orgPlans
        .filter((org) => org.sizeClass)
        .map((org) => `${org.sizeClass}=${org.chunks}`)
        .join(', ') +
      `; others ${orgPlans[SIZE_CLASSES.length]!.chunks}…${orgPlans[orgPlans.length - 1]!.chunks}; exact search up to ${params.exactMaxChunks} chunks`,
  );

  // The chunker must give one chunk per paragraph, or the counts below mean nothing.
  for (const org of orgPlans.slice(0, 8)) {
    const doc = corpus.document(org.index, 0, org.documents[0]!);
    const chunks = chunkText(doc.content, { targetSize: CHUNK_SIZE, overlap: CHUNK_OVERLAP });
    assert.equal(
      chunks.length,
      doc.paragraphs.length,
      `document 0 of org ${org.index}: ${chunks.length} chunks for ${doc.paragraphs.length} paragraphs`,
    );
  }

  const stackEnv = {
    ...BENCH_LIMITS_ENV,
    KB_CHUNK_SIZE: String(CHUNK_SIZE),
    KB_CHUNK_OVERLAP: String(CHUNK_OVERLAP),
    KB_EXACT_SEARCH_MAX_CHUNKS: String(params.exactMaxChunks),
    EMBEDDING_DIMENSIONS: String(DIMENSIONS),
    ...(embeddingServer
      ? { EMBEDDING_PROVIDER: 'openai', OPENAI_API_KEY: 'bench-local-embeddings', OPENAI_BASE_URL: embeddingServer.baseUrl }
      : { EMBEDDING_PROVIDER: 'local' }),
    DB_POOL_SIZE: String(POOL_SIZE),
  };
  const stackStarted = Date.now();
  const stack = await Stack.start({ env: stackEnv });
  log(`knowledge stack (API ${stack.url}, worker on ${stack.env.TEMPORAL_TASK_QUEUE_PREFIX}) started in ${Date.now() - stackStarted} ms`);
  log(`  logs: ${stack.api.logFile}, ${stack.worker.logFile}`);
  const pool = new Pool({ connectionString: context.infra.databaseUrl, max: 3 });
  try {
    const http = new Http(stack.url);

    // Organisations, each with a kb key.
    const tenants: Tenant[] = [];
    for (const plan of orgPlans) {
      const orgId = await createOrg(http, `kb-bench org ${plan.index}${plan.sizeClass ? ` (${plan.sizeClass})` : ''}`);
      const key = await createKey(http, orgId, ['kb:read', 'kb:write']);
      tenants.push({ plan, orgId, key });
    }
    const orgIds = tenants.map((tenant) => tenant.orgId);

    // ── 1. Ingestion ────────────────────────────────────────────────────────────────────────────
    const documents = shuffle(
      tenants.flatMap((tenant) => tenant.plan.documents.map((paragraphs, docIndex) => ({ tenant, docIndex, paragraphs }))),
      prng(mixSeed(params.seed, 9)),
    );
    const expectedChunks = new Map<string, number>();
    const documentOwner = new Map<string, Tenant>();
    let posted = 0;
    let finished = 0;
    let failed = 0;
    let polling = true;
    const poll = async () => {
      while (polling) {
        const { rows } = await pool.query(
          `SELECT count(*) FILTER (WHERE status <> 'processing')::int AS finished, count(*) FILTER (WHERE status = 'failed')::int AS failed
               FROM knowledge_documents WHERE org_id = ANY($1::uuid[])`,
          [orgIds],
        );
        finished = rows[0].finished;
        failed = rows[0].failed;
        if (failed > 0) return;
        await sleep(200);
      }
    };
    log(
      `ingestion: ${documentCount} documents, ${params.postConcurrency} POSTs at a time, at most ${params.maxDocumentsInFlight} documents in flight`,
    );
    const ingestStarted = Date.now();
    const ingestStartedPerf = performance.now();
    const poller = poll();
    const progress = setInterval(() => {
      const seconds = (Date.now() - ingestStarted) / 1000;
      log(`  ${seconds.toFixed(0)} s: ${posted} posted, ${finished} finished (${((finished / documentCount) * 100).toFixed(0)}%)`);
    }, 30_000);
    const postLatencies: number[] = [];
    let next = 0;
    const poster = async () => {
      while (next < documents.length) {
        if (failed > 0) return;
        if (posted - finished >= params.maxDocumentsInFlight) {
          await sleep(20);
          continue;
        }
        const { tenant, docIndex, paragraphs } = documents[next++]!;
        const doc = corpus.document(tenant.plan.index, docIndex, paragraphs);
        posted++;
        const begin = performance.now();
        const response = await http.post('/api/v1/knowledge/documents', {
          token: tenant.key,
          body: { org_id: tenant.orgId, title: doc.title, content: doc.content, metadata: { org: tenant.plan.index, doc: docIndex } },
        });
        postLatencies.push(performance.now() - begin);
        assert.equal(response.status, 202, response.text);
        expectedChunks.set(response.body.doc_id as string, paragraphs);
        documentOwner.set(response.body.doc_id as string, tenant);
      }
    };
    try {
      await Promise.all(Array.from({ length: params.postConcurrency }, poster));
      while (finished < documentCount && failed === 0) await sleep(50);
    } finally {
      polling = false;
      clearInterval(progress);
      await poller;
    }
    const ingestWallPollMs = performance.now() - ingestStartedPerf;
    if (failed > 0) {
      const { rows } = await pool.query(
        `SELECT id, failure_reason FROM knowledge_documents WHERE org_id = ANY($1::uuid[]) AND status = 'failed' LIMIT 5`,
        [orgIds],
      );
      throw new Error(`${failed} documents failed to ingest, e.g. ${JSON.stringify(rows)}`);
    }
    const { rows: docRows } = await pool.query(
      `SELECT id, status, chunk_count, extract(epoch FROM created_at) * 1000 AS created_ms, extract(epoch FROM updated_at) * 1000 AS updated_ms
           FROM knowledge_documents WHERE org_id = ANY($1::uuid[])`,
      [orgIds],
    );
    const lastReadyMs = Math.max(...docRows.map((row: { updated_ms: string }) => Number(row.updated_ms)));
    const ingestWallMs = lastReadyMs - ingestStarted;
    const docLatenciesMs = docRows.map((row: { created_ms: string; updated_ms: string }) => Number(row.updated_ms) - Number(row.created_ms));
    let wrongCounts = 0;
    for (const row of docRows as Array<{ id: string; status: string; chunk_count: number }>) {
      if (row.status !== 'ready' || row.chunk_count !== expectedChunks.get(row.id)) wrongCounts++;
    }
    assert.equal(docRows.length, documentCount, 'documents stored');
    assert.equal(wrongCounts, 0, `${wrongCounts} documents are not ready with the expected chunk_count`);
    const { rows: orgCounts } = await pool.query(
      `SELECT org_id, count(*)::int AS n FROM knowledge_chunks WHERE org_id = ANY($1::uuid[]) GROUP BY org_id`,
      [orgIds],
    );
    const chunksByOrg = new Map(orgCounts.map((row: { org_id: string; n: number }) => [row.org_id, row.n]));
    for (const tenant of tenants) assert.equal(chunksByOrg.get(tenant.orgId), tenant.plan.chunks, `chunks of org ${tenant.plan.index}`);
    // And through the API, for a sample.
    for (const docId of [...expectedChunks.keys()].slice(0, 20)) {
      const view = await http.get(`/api/v1/knowledge/documents/${docId}`, { token: documentOwner.get(docId)!.key });
      assert.equal(view.status, 200, view.text);
      assert.equal(view.body.status, 'ready');
      assert.equal(view.body.chunk_count, expectedChunks.get(docId));
    }
    const ingestion = {
      documents: documentCount,
      chunks: params.totalChunks,
      wallSeconds: round(ingestWallMs / 1000, 1),
      wallSecondsByPolling: round(ingestWallPollMs / 1000, 1),
      chunksPerSecond: round(params.totalChunks / (ingestWallMs / 1000), 1),
      documentsPerSecond: round(documentCount / (ingestWallMs / 1000), 2),
      documentLatencySeconds: Object.fromEntries(
        Object.entries(summarize(docLatenciesMs)).map(([key, value]) => [key, key === 'count' ? value : round(value / 1000, 2)]),
      ),
      postLatencyMs: summarize(postLatencies),
      postConcurrency: params.postConcurrency,
      maxDocumentsInFlight: params.maxDocumentsInFlight,
    };
    log(
      `ingestion: ${ingestion.chunks} chunks in ${ingestion.wallSeconds} s = ${ingestion.chunksPerSecond} chunks/s (${ingestion.documentsPerSecond} documents/s); every chunk_count as expected`,
    );

    // ── Database facts, statistics ───────────────────────────────────────────────────────────────
    const one = async (sql: string) => (await pool.query(sql)).rows[0];
    const serverVersion = (await one(`SHOW server_version`)).server_version as string;
    const vectorVersion = (await one(`SELECT extversion FROM pg_extension WHERE extname = 'vector'`))?.extversion as string | undefined;
    const iterativeScanAvailable = supportsIterativeScan(vectorVersion);
    const reltuplesBeforeAnalyze = Number((await one(`SELECT reltuples FROM pg_class WHERE oid = 'knowledge_chunks'::regclass`)).reltuples);
    // What autovacuum would have done by now on a server; PGlite has no autovacuum.
    await pool.query(`ANALYZE knowledge_chunks`);
    await pool.query(`ANALYZE knowledge_documents`);
    const reltuples = Math.max(0, Number((await one(`SELECT reltuples FROM pg_class WHERE oid = 'knowledge_chunks'::regclass`)).reltuples));
    const tableChunks = Number((await one(`SELECT count(*) AS n FROM knowledge_chunks`)).n);
    const classTenants = SIZE_CLASSES.map(({ name }) => tenants.find((tenant) => tenant.plan.sizeClass === name)!);
    // Which organisations the product gave an index of their own (those past KB_EXACT_SEARCH_MAX_CHUNKS, by its workflow).
    const productIndexes = new Map(
      (await pool.query(`SELECT org_id, status, build_ms FROM knowledge_vector_indexes`)).rows.map((row) => [
        row.org_id as string,
        row as { status: string; build_ms: number | null },
      ]),
    );
    // The forced-HNSW variants below need every class organisation to have its own index: the others get
    // the product's very statement here, timed (IF NOT EXISTS leaves the product's own alone).
    const indexBuilds: Record<string, { chunks: number; byProduct: boolean; status: string | null; seconds: number | null }> = {};
    for (const tenant of classTenants) {
      const own = productIndexes.get(tenant.orgId);
      const begin = performance.now();
      if (!own) await pool.query(vectorIndexDdl(tenant.orgId, { m: HNSW_M, efConstruction: HNSW_EF_CONSTRUCTION }));
      indexBuilds[tenant.plan.sizeClass!] = {
        chunks: tenant.plan.chunks,
        byProduct: Boolean(own),
        status: own?.status ?? null,
        seconds: own ? (own.build_ms === null ? null : round(own.build_ms / 1000, 2)) : round((performance.now() - begin) / 1000, 2),
      };
    }
    log(`own HNSW indexes of the class organisations: ${JSON.stringify(indexBuilds)}`);
    const sizes = await one(
      `SELECT pg_total_relation_size('knowledge_chunks') AS table_bytes,
                COALESCE((SELECT sum(pg_relation_size(c.oid)) FROM pg_class c WHERE c.relname LIKE 'knowledge\\_chunks\\_vec\\_%' AND c.relkind = 'i'), 0) AS hnsw_bytes`,
    );
    log(
      `PostgreSQL ${serverVersion}, pgvector ${vectorVersion} (iterative scan ${iterativeScanAvailable ? 'available' : 'unavailable'}); ` +
        `reltuples ${reltuplesBeforeAnalyze} before ANALYZE, ${reltuples} after; ${tableChunks} rows; own HNSW indexes ${round(Number(sizes.hnsw_bytes) / 2 ** 20, 1)} MiB`,
    );

    // ── Queries and plans per class ─────────────────────────────────────────────────────────────
    const queries = new Map<SizeClass, Query[]>();
    for (const tenant of classTenants) {
      const random = prng(mixSeed(params.seed, 11, tenant.plan.index));
      const list: Query[] = [];
      for (let q = 0; q < params.queriesPerClass; q++) {
        const docIndex = Math.floor(random() * tenant.plan.documents.length);
        const doc = corpus.document(tenant.plan.index, docIndex, tenant.plan.documents[docIndex]!);
        const chunkIndex = Math.floor(random() * doc.paragraphs.length);
        const text = corpus.query(random, doc.paragraphs[chunkIndex]!);
        list.push({ text, embedding: Object.freeze(embedder.embedOne(text)), source: { title: doc.title, chunkIndex } });
      }
      queries.set(tenant.plan.sizeClass!, list);
    }
    const shape = (tenant: Tenant) => ({ orgChunks: tenant.plan.chunks, k: K, iterativeScanAvailable });
    const plans = new Map(
      classTenants.map((tenant) => [
        tenant.plan.sizeClass!,
        planSearch({ ...shape(tenant), exactMaxChunks: params.exactMaxChunks, ownIndexReady: productIndexes.get(tenant.orgId)?.status === 'ready' }),
      ]),
    );
    const hnswPlans = new Map(
      classTenants.map((tenant) => [tenant.plan.sizeClass!, planSearch({ ...shape(tenant), exactMaxChunks: 0, ownIndexReady: true })]),
    );
    const search = (tenant: Tenant, query: Query, plan: SearchPlan): SqlSearch => ({
      orgId: tenant.orgId,
      limit: K,
      plan,
      // What KnowledgeSearchService.search asks for: the vector leg alone, K deep.
      statement: knowledgeSearchStatement(tenant.orgId, {
        mode: 'vector',
        embedding: query.embedding,
        text: query.text,
        limit: K,
        legDepth: K,
        plan,
      }),
    });

    // ── 3. Recall@6 ────────────────────────────────────────────────────────────────────────────────
    type Variant = { name: string; plan: (cls: SizeClass) => SqlSearch['plan']; force: boolean };
    const variants: Variant[] = [
      { name: 'baseline (API plan, pg)', plan: (cls) => plans.get(cls)!, force: false },
      { name: 'HNSW ef=planner', plan: (cls) => ({ ...hnswPlans.get(cls)!, iterativeScan: iterativeScanAvailable }), force: true },
      { name: 'HNSW ef=40', plan: () => ({ exact: false, efSearch: MIN_EF_SEARCH, iterativeScan: iterativeScanAvailable }), force: true },
      {
        name: `HNSW ef=${WIDE_EF_SEARCH}`,
        plan: () => ({ exact: false, efSearch: WIDE_EF_SEARCH, iterativeScan: iterativeScanAvailable }),
        force: true,
      },
    ];
    if (iterativeScanAvailable) {
      variants.push(
        { name: 'HNSW ef=planner, no iterative', plan: (cls) => ({ ...hnswPlans.get(cls)!, iterativeScan: false }), force: true },
        { name: 'HNSW ef=40, no iterative', plan: () => ({ exact: false, efSearch: MIN_EF_SEARCH, iterativeScan: false }), force: true },
      );
    }
    interface Measure {
      recall: number[];
      short: number;
      rows: number[];
      latencyMs: number[];
      bestScore: number[];
    }
    const newMeasure = (): Measure => ({ recall: [], short: 0, rows: [], latencyMs: [], bestScore: [] });
    const recallByClass: Record<string, Record<string, Measure>> = {};
    const planNodes: Record<string, { asIs: string; asIsUsesHnsw: boolean; forced: string; forcedUsesHnsw: boolean }> = {};
    const mismatchesApiVsBaseline: Record<string, number> = {};
    log(
      `recall@${K}: ${params.queriesPerClass} queries per class; exact ground truth, the API, the baseline and ${variants.length - 1} forced-HNSW variants`,
    );
    const client = await pool.connect();
    try {
      for (const tenant of classTenants) {
        const cls = tenant.plan.sizeClass!;
        const measures: Record<string, Measure> = { exact: newMeasure(), API: newMeasure() };
        for (const variant of variants) measures[variant.name] = newMeasure();
        const probe = search(tenant, queries.get(cls)![0]!, hnswPlans.get(cls)!);
        const asIs = await usesHnsw(client, probe, false);
        const forced = await usesHnsw(client, probe, true);
        planNodes[cls] = { asIs: asIs.topNode, asIsUsesHnsw: asIs.hnsw, forced: forced.topNode, forcedUsesHnsw: forced.hnsw };
        if (!forced.hnsw) log(`  warning: ${cls}: even with enable_sort=off the search does not use the HNSW index (${forced.topNode})`);
        mismatchesApiVsBaseline[cls] = 0;
        const record = (measure: Measure, hits: Hit[], truth: Hit[], ms: number) => {
          measure.recall.push(recallAt(hits, truth, K));
          measure.rows.push(hits.length);
          if (hits.length < Math.min(K, tenant.plan.chunks)) measure.short++;
          measure.latencyMs.push(ms);
          if (hits.length) measure.bestScore.push(1 - hits[0]!.distance);
        };
        for (const query of queries.get(cls)!) {
          let begin = performance.now();
          const truth = await sqlSearch(client, search(tenant, query, { exact: true, efSearch: 0, iterativeScan: false }));
          record(measures.exact!, truth, truth, performance.now() - begin);
          begin = performance.now();
          const response = await http.post('/api/v1/knowledge/search', {
            token: tenant.key,
            body: { org_id: tenant.orgId, query: query.text, match_count: K },
          });
          const apiMs = performance.now() - begin;
          assert.equal(response.status, 200, response.text);
          const apiHits: Hit[] = (response.body.matches as Array<{ chunk_id: string; score: number }>).map((m) => ({
            id: m.chunk_id,
            distance: 1 - m.score,
          }));
          record(measures.API!, apiHits, truth, apiMs);
          for (const variant of variants) {
            begin = performance.now();
            const hits = await sqlSearch(client, search(tenant, query, variant.plan(cls)), variant.force);
            record(measures[variant.name]!, hits, truth, performance.now() - begin);
            if (!variant.force && hits.map((h) => h.id).join() !== apiHits.map((h) => h.id).join()) mismatchesApiVsBaseline[cls]!++;
          }
        }
        recallByClass[cls] = measures;
        log(
          `  ${cls} (${tenant.plan.chunks} chunks, API plan ${plans.get(cls)!.exact ? 'exact' : `HNSW ef=${plans.get(cls)!.efSearch}`}): ` +
            Object.entries(measures)
              .map(([name, m]) => `${name} ${mean(m.recall).toFixed(3)}${m.short ? ` (${m.short} short)` : ''}`)
              .join(', '),
        );
      }
    } finally {
      client.release();
    }

    // ── 3b. Hit rate@6 of each query's source paragraph, per mode of POST /knowledge/query ─────────
    const modes = ['vector', 'keyword', 'hybrid'] as const;
    const hitRates: Record<string, Record<string, { hits: number; queries: number; latencyMs: number[] }>> = {};
    for (const tenant of classTenants) {
      const cls = tenant.plan.sizeClass!;
      hitRates[cls] = {};
      for (const mode of modes) {
        const measure = { hits: 0, queries: 0, latencyMs: [] as number[] };
        for (const query of queries.get(cls)!) {
          const begin = performance.now();
          const response = await http.post('/api/v1/knowledge/query', {
            token: tenant.key,
            body: { org_id: tenant.orgId, query: query.text, match_count: K, mode },
          });
          measure.latencyMs.push(performance.now() - begin);
          assert.equal(response.status, 200, response.text);
          const matches = response.body.matches as Array<{ title: string; chunk_index: number }>;
          measure.queries++;
          if (matches.some((match) => match.title === query.source.title && match.chunk_index === query.source.chunkIndex)) measure.hits++;
        }
        hitRates[cls]![mode] = measure;
      }
      log(
        `  source-paragraph hit rate@${K} ${cls}: ${modes.map((mode) => `${mode} ${(hitRates[cls]![mode]!.hits / hitRates[cls]![mode]!.queries).toFixed(3)}`).join(', ')}`,
      );
    }

    // ── 2 + 4. Search load: API vs baseline SQL ──────────────────────────────────────────────────
    const apiRequest = (tenant: Tenant, query: Query): LoadRequest => ({
      label: tenant.plan.sizeClass!,
      http: {
        path: '/api/v1/knowledge/search',
        token: tenant.key,
        body: JSON.stringify({ org_id: tenant.orgId, query: query.text, match_count: K }),
      },
    });
    const sqlRequest = (tenant: Tenant, query: Query): LoadRequest => ({
      label: tenant.plan.sizeClass!,
      sql: search(tenant, query, plans.get(tenant.plan.sizeClass!)!),
    });
    const mixed = <T>(make: (tenant: Tenant, query: Query) => T): T[] => {
      const list: T[] = [];
      for (let q = 0; q < params.queriesPerClass; q++)
        for (const tenant of classTenants) list.push(make(tenant, queries.get(tenant.plan.sizeClass!)![q]!));
      return list;
    };
    const scenarios: Array<{ name: string; api: LoadRequest[]; sql: LoadRequest[] }> = [
      { name: 'mixed', api: mixed(apiRequest), sql: mixed(sqlRequest) },
      ...classTenants.map((tenant) => {
        const list = queries.get(tenant.plan.sizeClass!)!;
        return { name: tenant.plan.sizeClass!, api: list.map((q) => apiRequest(tenant, q)), sql: list.map((q) => sqlRequest(tenant, q)) };
      }),
    ];
    // The same SQL behind a bare HTTP server: the ceiling of any API in front of it on this machine.
    const bareSearches: SqlSearch[] = [];
    const bareRequest = (request: LoadRequest): LoadRequest => ({
      label: request.label,
      http: { path: '/search', token: 'unused', body: JSON.stringify({ search: bareSearches.push(request.sql!) - 1 }) },
    });
    const bareScenarios = new Map(scenarios.map((scenario) => [scenario.name, scenario.sql.map(bareRequest)]));
    const searchesFile = join(mkdtempSync(join(tmpdir(), 'pylon-bench-')), 'searches.json');
    writeFileSync(searchesFile, JSON.stringify(bareSearches));
    const bare = await startBaselineServer('baseline-search-server', {
      DATABASE_URL: context.infra.databaseUrl,
      POOL_SIZE: String(POOL_SIZE),
      SEARCHES_FILE: searchesFile,
    });
    const loadResults: Record<string, { api: LoadResult; bare: LoadResult; sql: LoadResult }> = {};
    const common = { concurrency: params.concurrency, warmupSeconds: params.warmupSeconds, durationSeconds: params.searchSeconds };
    try {
      for (const scenario of scenarios) {
        const api = await runLoad({ mode: 'http', baseUrl: stack.url, requests: scenario.api, ...common });
        const bareHttp = await runLoad({ mode: 'http', baseUrl: bare.url, requests: bareScenarios.get(scenario.name)!, ...common });
        const sql = await runLoad({ mode: 'sql', databaseUrl: context.infra.databaseUrl, poolSize: POOL_SIZE, requests: scenario.sql, ...common });
        for (const [side, result] of [
          ['API', api],
          ['bare HTTP', bareHttp],
          ['baseline', sql],
        ] as const) {
          if (result.errors) log(`  ${scenario.name} ${side}: ${result.errors} errors, first: ${result.firstError}`);
        }
        const all = (result: LoadResult) => Object.values(result.latenciesMs).flat();
        const line = (result: LoadResult) =>
          `${result.requestsPerSecond.toFixed(1)} req/s p50 ${percentile(all(result), 50).toFixed(1)} ms p99 ${percentile(all(result), 99).toFixed(1)} ms`;
        log(`search ${scenario.name}: API ${line(api)}; bare HTTP ${line(bareHttp)}; baseline ${line(sql)}`);
        loadResults[scenario.name] = { api, bare: bareHttp, sql };
      }
    } finally {
      await bare.process.stop();
    }

    // ── Report ───────────────────────────────────────────────────────────────────────────────────
    const figures = (result: LoadResult) => {
      const all = Object.values(result.latenciesMs).flat();
      return {
        requestsPerSecond: round(result.requestsPerSecond, 1),
        latencyMs: latencyFigures(all),
        byClassLatencyMs: Object.fromEntries(Object.entries(result.latenciesMs).map(([cls, values]) => [cls, latencyFigures(values)])),
        completed: result.completed,
        errors: result.errors,
        firstError: result.firstError,
      };
    };
    const rows: Row[] = [
      { metric: 'ingestion chunks/s', pylon: ingestion.chunksPerSecond, baseline: null, digits: 0 },
      { metric: 'ingestion documents/s', pylon: ingestion.documentsPerSecond, baseline: null },
      { metric: 'ingestion wall time (s)', pylon: ingestion.wallSeconds, baseline: null, digits: 1 },
      { metric: 'document ready p50 (s)', pylon: ingestion.documentLatencySeconds.p50 as number, baseline: null },
      { metric: 'document ready p99 (s)', pylon: ingestion.documentLatencySeconds.p99 as number, baseline: null },
    ];
    for (const scenario of scenarios) {
      const api = figures(loadResults[scenario.name]!.api);
      const sql = figures(loadResults[scenario.name]!.sql);
      const label = scenario.name === 'mixed' ? 'search mixed' : `search ${scenario.name} org`;
      const bareHttp = figures(loadResults[scenario.name]!.bare);
      rows.push(
        { metric: `${label} requests/s`, pylon: api.requestsPerSecond, baseline: sql.requestsPerSecond, digits: 1 },
        { metric: `${label} bare HTTP (Fastify + pg) requests/s`, pylon: bareHttp.requestsPerSecond, baseline: sql.requestsPerSecond, digits: 1 },
        { metric: `${label} p50 (ms)`, pylon: api.latencyMs.p50, baseline: sql.latencyMs.p50 },
        { metric: `${label} p99 (ms)`, pylon: api.latencyMs.p99, baseline: sql.latencyMs.p99 },
      );
    }
    if (Object.values(loadResults).some((r) => r.api.errors || r.bare.errors || r.sql.errors)) {
      rows.push({
        metric: 'search errors',
        pylon: Object.values(loadResults).reduce((sum, r) => sum + r.api.errors, 0),
        baseline: Object.values(loadResults).reduce((sum, r) => sum + r.sql.errors, 0),
        digits: 0,
      });
    }
    for (const tenant of classTenants) {
      const measures = recallByClass[tenant.plan.sizeClass!]!;
      rows.push({
        metric: `recall@${K} ${tenant.plan.sizeClass} org`,
        pylon: round(mean(measures.API!.recall), 3),
        baseline: round(mean(measures[variants[0]!.name]!.recall), 3),
        digits: 3,
      });
    }

    const recallSummary = (m: Measure) => ({
      meanRecall: round(mean(m.recall), 4),
      minRecall: round(Math.min(...m.recall), 4),
      queriesWithFewerThanK: m.short,
      meanRowsReturned: round(mean(m.rows), 2),
      meanBestScore: round(mean(m.bestScore), 4),
      latencyMs: latencyFigures(m.latencyMs),
    });
    const recallTable: Grid = {
      title: `recall@${K} vs exact search, ${params.queriesPerClass} queries per class (mean recall; queries with fewer than ${K} rows; sequential p50 ms)`,
      header: ['variant', ...classTenants.map((t) => `${t.plan.sizeClass} (${t.plan.chunks})`)],
      rows: [
        [
          'API plan',
          ...classTenants.map((t) => {
            const p = plans.get(t.plan.sizeClass!)!;
            return p.exact ? 'exact' : `HNSW ef=${p.efSearch}${p.iterativeScan ? '+iter' : ''}`;
          }),
        ],
        ['planner ef if HNSW', ...classTenants.map((t) => hnswPlans.get(t.plan.sizeClass!)!.efSearch)],
        ...['exact', 'API', ...variants.map((v) => v.name)].map((name) => [
          name,
          ...classTenants.map((t) => {
            const m = recallByClass[t.plan.sizeClass!]![name]!;
            return `${mean(m.recall).toFixed(3)}; ${m.short}; ${percentile(m.latencyMs, 50).toFixed(1)}`;
          }),
        ]),
        ['repository SQL uses HNSW?', ...classTenants.map((t) => (planNodes[t.plan.sizeClass!]!.asIsUsesHnsw ? 'yes' : 'no'))],
      ],
    };
    const loadTable: Grid = {
      title: `search load per class within the mixed run (${params.concurrency} clients; p50 / p99 ms)`,
      header: ['class', 'API', 'baseline'],
      rows: classTenants.map((t) => {
        const cls = t.plan.sizeClass!;
        const api = latencyFigures(loadResults.mixed!.api.latenciesMs[cls] ?? []);
        const sql = latencyFigures(loadResults.mixed!.sql.latenciesMs[cls] ?? []);
        return [cls, `${api.p50} / ${api.p99}`, `${sql.p50} / ${sql.p99}`];
      }),
    };

    const hitRateTable: Grid = {
      title: `hit rate@${K} of each query's source paragraph through POST /api/v1/knowledge/query, per mode (${params.queriesPerClass} queries per class; hit rate; sequential p50 ms)`,
      header: ['mode', ...classTenants.map((t) => `${t.plan.sizeClass} (${t.plan.chunks})`)],
      rows: modes.map((mode) => [
        mode,
        ...classTenants.map((t) => {
          const m = hitRates[t.plan.sizeClass!]![mode]!;
          return `${(m.hits / m.queries).toFixed(3)}; ${percentile(m.latencyMs, 50).toFixed(1)}`;
        }),
      ]),
    };

    const notes = [
      `Organisations: ${params.orgs}; the four measured hold ${SIZE_CLASSES.map(({ name }) => name).join(', ')} of ${params.totalChunks} chunks; documents of at most ${params.maxChunksPerDocument} chunks (one chunk per paragraph, KB_CHUNK_SIZE=${CHUNK_SIZE}, KB_CHUNK_OVERLAP=${CHUNK_OVERLAP}).`,
      `KB_EXACT_SEARCH_MAX_CHUNKS=${params.exactMaxChunks}${params.totalChunks === FULL_SIZE ? ' (the default)' : ` (the default ${DEFAULT_EXACT_MAX} scaled to ${params.totalChunks} chunks)`}.`,
      'Ingestion: from the first POST to the last document turning ready (its updated_at); document ready = updated_at − created_at, queueing included.',
      `Search load: ${params.concurrency} closed-loop clients in a worker thread, ${params.warmupSeconds} s warm-up then ${params.searchSeconds} s; latencies exact. The API caches query embeddings (QUERY_EMBEDDING_CACHE_SIZE) and the queries repeat, so both sides skip embedding after the warm-up; the baseline also skips auth, validation and the organisation-size lookup.`,
      "Bare HTTP: the baseline's statements behind one bare Fastify route with a pg Pool of the same size (baseline-search-server.ts), loaded by the same HTTP client as the API: no API in front of this SQL can serve more on this machine. Its row reads bare HTTP | baseline SQL.",
      `Recall: a returned row counts when it is in the exact top ${K} or ties the ${K}-th distance (±${TIE_EPSILON}). Exact = the repository's exact SQL (materialized CTE over the organisation's rows). Forced HNSW = the repository's non-exact search SQL with enable_sort=off in its transaction, so that only the HNSW index can order the candidates (otherwise PostgreSQL may pick the org_id index and a sort, which is exact).`,
      `HNSW variants search each class organisation's own partial HNSW index (m=${HNSW_M}, ef_construction=${HNSW_EF_CONSTRUCTION}; the product builds one in the background for an organisation past KB_EXACT_SEARCH_MAX_CHUNKS, the benchmark builds the others' with the same statement and times it: pylon.indexBuilds).`,
      `reltuples of knowledge_chunks before ANALYZE: ${reltuplesBeforeAnalyze} (the API plans with it); the benchmark runs ANALYZE before searching, as autovacuum would on a server.`,
    ];
    if (!iterativeScanAvailable)
      notes.push(`pgvector ${vectorVersion} has no iterative index scan: HNSW returns at most ef_search candidates before the organisation filter.`);

    return {
      parameters: {
        ...params,
        dimensions: DIMENSIONS,
        k: K,
        embedder: embedder.id,
        ...(clustered ? { embeddingSimilarity: similarityProfile(clustered, corpus), embeddingServerRequests: embeddingServer!.requests() } : {}),
        chunkSize: CHUNK_SIZE,
        chunkOverlap: CHUNK_OVERLAP,
        documents: documentCount,
        corpus: corpus.options,
        // The API key the stack was given stays out of the report, whatever it is.
        stackEnv: Object.fromEntries(Object.entries(stackEnv).filter(([name]) => name !== 'OPENAI_API_KEY')),
        baselinePoolSize: POOL_SIZE,
        organisations: tenants.map((t) => ({
          index: t.plan.index,
          sizeClass: t.plan.sizeClass ?? null,
          chunks: t.plan.chunks,
          documents: t.plan.documents.length,
        })),
      },
      rows,
      tables: [recallTable, hitRateTable, loadTable],
      pylon: {
        database: {
          serverVersion,
          pgvector: vectorVersion,
          iterativeScanAvailable,
          reltuplesBeforeAnalyze,
          reltuplesAfterAnalyze: reltuples,
          rows: tableChunks,
          tableMiB: round(Number(sizes.table_bytes) / 2 ** 20, 1),
          ownHnswIndexesMiB: round(Number(sizes.hnsw_bytes) / 2 ** 20, 1),
        },
        indexBuilds,
        ingestion,
        plans: Object.fromEntries(
          classTenants.map((t) => [
            t.plan.sizeClass!,
            {
              chunks: t.plan.chunks,
              api: plans.get(t.plan.sizeClass!),
              ifHnsw: hnswPlans.get(t.plan.sizeClass!),
              candidateQueryPlan: planNodes[t.plan.sizeClass!],
            },
          ]),
        ),
        search: Object.fromEntries(Object.entries(loadResults).map(([name, r]) => [name, figures(r.api)])),
        recall: Object.fromEntries(
          Object.entries(recallByClass).map(([cls, measures]) => [
            cls,
            Object.fromEntries(Object.entries(measures).map(([name, m]) => [name, recallSummary(m)])),
          ]),
        ),
        sourceParagraphHitRate: Object.fromEntries(
          Object.entries(hitRates).map(([cls, byMode]) => [
            cls,
            Object.fromEntries(
              Object.entries(byMode).map(([mode, m]) => [
                mode,
                { hitRate: round(m.hits / m.queries, 4), queries: m.queries, latencyMs: latencyFigures(m.latencyMs) },
              ]),
            ),
          ]),
        ),
        sampleQueries: Object.fromEntries([...queries].map(([cls, list]) => [cls, list.slice(0, 3).map((q) => q.text)])),
      },
      baseline: {
        what: 'the repository search statements with the API plan (exact: one statement; HNSW: its settings and the query in a transaction) through a pg Pool, query vectors precomputed',
        search: Object.fromEntries(Object.entries(loadResults).map(([name, r]) => [name, figures(r.sql)])),
        bareHttp: {
          what: 'the same statements behind a bare Fastify route (baseline-search-server.ts), through the same HTTP load generator as the API',
          search: Object.fromEntries(Object.entries(loadResults).map(([name, r]) => [name, figures(r.bare)])),
        },
        resultsDifferingFromApi: mismatchesApiVsBaseline,
      },
      notes,
    };
  } finally {
    await pool.end().catch(() => undefined);
    await stack.stop();
    await embeddingServer?.stop();
  }
}
