/**
 * (g) Which vector index could serve an organisation past KB_EXACT_SEARCH_MAX_CHUNKS: recall@6 and
 * per-query time of pgvector's HNSW (at several ef_search) and IVFFlat (several lists and probes) on one
 * organisation's clustered, sentence-embedding-like chunks, against exact search over the same rows.
 * Only SQL: no API, no Pylon tables, so the figures are the index designs' own.
 */
import { Client } from 'pg';
import { ClusteredEmbeddings } from './clustered-embeddings';
import { Corpus, prng } from './knowledge-corpus';
import { envInt, log, round, type Benchmark, type BenchContext, type BenchReport } from './support';

const K = 6;
const DIMENSIONS = 384;
const HNSW_EF_SEARCH = [100, 400, 1000];
const IVFFLAT_PROBES = [5, 10, 20, 40];

interface Variant {
  design: string;
  recall: number;
  msPerQuery: number;
  buildSeconds: number;
}

const literal = (vector: number[]) => `[${vector.join(',')}]`;

export const vectorIndexDesignsBenchmark: Benchmark = {
  name: 'vector-index-designs',
  description: "recall@6 and time per query of pgvector's HNSW and IVFFlat on one large organisation's clustered chunks, against exact search",
  budgetMinutes: () => 15,
  async run(context: BenchContext): Promise<BenchReport> {
    const chunks = envInt('BENCH_VID_CHUNKS', 50_000);
    const queryCount = envInt('BENCH_VID_QUERIES', 50);
    const corpus = new Corpus();
    const model = new ClusteredEmbeddings(corpus, DIMENSIONS);
    // One organisation's documents, one chunk per paragraph: its topics, as the 50% class organisation has them.
    const paragraphs: string[] = [];
    for (let doc = 0; paragraphs.length < chunks; doc++)
      paragraphs.push(...corpus.document(3, doc, 80).paragraphs.slice(0, chunks - paragraphs.length));
    const vectors = paragraphs.map((paragraph) => model.embed(paragraph));
    const random = prng(7);
    const queries = Array.from({ length: queryCount }, () => model.embed(corpus.query(random, paragraphs[Math.floor(random() * chunks)]!)));

    const db = new Client({ connectionString: context.infra.databaseUrl });
    await db.connect();
    try {
      await db.query(`CREATE EXTENSION IF NOT EXISTS vector`);
      await db.query(`DROP TABLE IF EXISTS bench_vectors`);
      await db.query(`CREATE TABLE bench_vectors (id int PRIMARY KEY, embedding vector(${DIMENSIONS}))`);
      for (let from = 0; from < chunks; from += 1_000) {
        const slice = vectors.slice(from, from + 1_000);
        await db.query(`INSERT INTO bench_vectors SELECT id, embedding::vector FROM unnest($1::int[], $2::text[]) AS v(id, embedding)`, [
          slice.map((_, offset) => from + offset),
          slice.map(literal),
        ]);
      }
      await db.query(`ANALYZE bench_vectors`);
      log(`vector-index-designs: ${chunks} chunks of one organisation, ${queryCount} queries`);

      const nearest = async (query: number[]) =>
        (await db.query<{ id: number }>(`SELECT id FROM bench_vectors ORDER BY embedding <=> $1::vector LIMIT ${K}`, [literal(query)])).rows.map(
          (row) => row.id,
        );
      const measure = async (truth: number[][] | null) => {
        let found = 0;
        const started = performance.now();
        const answers: number[][] = [];
        for (const [index, query] of queries.entries()) {
          const ids = await nearest(query);
          answers.push(ids);
          if (truth) found += ids.filter((id) => truth[index]!.includes(id)).length;
        }
        return { answers, recall: truth ? found / (queryCount * K) : 1, msPerQuery: (performance.now() - started) / queryCount };
      };

      await db.query(`SET enable_indexscan = off`);
      const exact = await measure(null);
      await db.query(`RESET enable_indexscan`);
      log(`  exact: ${exact.msPerQuery.toFixed(1)} ms/query`);
      const variants: Variant[] = [];
      const build = async (statement: string) => {
        const started = performance.now();
        await db.query(statement);
        return (performance.now() - started) / 1000;
      };
      const tryDesign = async (design: string, setting: string, buildSeconds: number) => {
        await db.query(setting);
        const result = await measure(exact.answers);
        variants.push({ design, recall: round(result.recall, 3), msPerQuery: round(result.msPerQuery, 2), buildSeconds: round(buildSeconds, 1) });
        log(`  ${design}: recall@6 ${result.recall.toFixed(3)}, ${result.msPerQuery.toFixed(1)} ms/query`);
      };

      const hnswBuild = await build(`CREATE INDEX bench_vectors_hnsw ON bench_vectors USING hnsw (embedding vector_cosine_ops)`);
      for (const ef of HNSW_EF_SEARCH) await tryDesign(`HNSW m=16 ef_construction=64, ef_search=${ef}`, `SET hnsw.ef_search = ${ef}`, hnswBuild);
      await db.query(`DROP INDEX bench_vectors_hnsw`);
      // pgvector's advice for lists (rows / 1000 up to a million rows) and the square root of the rows.
      for (const lists of [Math.max(1, Math.round(chunks / 1_000)), Math.round(Math.sqrt(chunks))]) {
        const ivfBuild = await build(
          `CREATE INDEX bench_vectors_ivfflat ON bench_vectors USING ivfflat (embedding vector_cosine_ops) WITH (lists = ${lists})`,
        );
        for (const probes of IVFFLAT_PROBES.filter((probes) => probes <= lists)) {
          await tryDesign(`IVFFlat lists=${lists}, probes=${probes}`, `SET ivfflat.probes = ${probes}`, ivfBuild);
        }
        await db.query(`DROP INDEX bench_vectors_ivfflat`);
      }
      await db.query(`DROP TABLE bench_vectors`);

      return {
        parameters: {
          chunks,
          queries: queryCount,
          k: K,
          dimensions: DIMENSIONS,
          corpus: corpus.options,
          embedder: 'bench/clustered-v1',
          chunkPerParagraph: true,
        },
        rows: variants.flatMap((variant) => [
          { metric: `recall@6 ${variant.design}`, pylon: round(variant.recall, 3), baseline: 1, digits: 3 },
          { metric: `ms/query ${variant.design}`, pylon: round(variant.msPerQuery, 2), baseline: round(exact.msPerQuery, 2), digits: 2 },
        ]),
        pylon: { side: 'approximate index designs', variants },
        baseline: { side: 'exact search (sequential scan)', msPerQuery: round(exact.msPerQuery, 2) },
        notes: ['"pylon" is each index design, "baseline" exact search over the same rows; queries run one at a time.'],
      };
    } finally {
      await db.end();
    }
  },
};
