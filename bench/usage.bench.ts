/**
 * `GET /api/v1/usage` at scale: 1 000 000 agent runs across 1 000 organisations, one large organisation with
 * a tenth of everything (≈ 100 000 runs), the others skewed (a few big, most small), with documents, videos,
 * webhook events, deliveries and attempts, ledger entries, keys and hourly request counts in proportion, all
 * spread over the last 40 days and seeded with `generate_series` in SQL. Measured: the endpoint for the large
 * organisation (and for a median one) through the real API, sequential requests after a warm-up, beside the
 * same statements (USAGE_SQL, as the API sends them: all at once on a pool) run raw through `pg`; and EXPLAIN
 * of each statement, to show which indexes the plans use.
 *
 * Meant for native PostgreSQL (`DATABASE_URL=… npm run bench usage`): seeding a million runs into the embedded
 * PGlite takes many minutes; BENCH_USAGE_RUNS makes the seed smaller there.
 */
import assert from 'node:assert/strict';
import { Pool } from 'pg';
import { USAGE_SQL } from '@pylon/usage';
import { createKey } from '../test/support/tenant';
import { envInt, log, summarize, type BenchContext, type Benchmark, type BenchReport, type Grid } from './support';

const DAY_MS = 86_400_000;
const ORGS = 1_000;
/** The large organisation's share of every table. */
const LARGE_SHARE = 0.1;

/** Which organisation (0 = the large one, the bench tenant; 1…999 skewed towards the low numbers) a seeded row belongs to. */
const ORG_PICK = `CASE WHEN random() < ${LARGE_SHARE} THEN 0 ELSE 1 + floor(${ORGS - 1} * power(random(), 2))::int END`;
/** A time in the last 40 days. */
const WHEN = `now() - random() * interval '40 days'`;

/** Seeds `runs` runs and the rest in proportion; returns the rows written per table. */
async function seed(pool: Pool, tenant: { orgId: string; versionId: string }, runs: number): Promise<Record<string, number>> {
  const q = (text: string, params: unknown[] = []) => pool.query(text, params);
  await q(`SELECT setseed(0.4242)`);
  await q(`DROP TABLE IF EXISTS bench_orgs`);
  await q(`CREATE TABLE bench_orgs (n int PRIMARY KEY, id uuid NOT NULL)`);
  await q(`INSERT INTO bench_orgs VALUES (0, $1)`, [tenant.orgId]);
  await q(`INSERT INTO bench_orgs SELECT n, gen_random_uuid() FROM generate_series(1, ${ORGS - 1}) n`);
  await q(`INSERT INTO organizations (id, name) SELECT id, 'bench org ' || n FROM bench_orgs WHERE n > 0`);
  // Rows of table T: `WITH s AS MATERIALIZED (SELECT i, <org pick> AS n, random() AS r FROM generate_series) SELECT … FROM s JOIN bench_orgs USING (n)`.
  const rows = (count: number) =>
    `WITH s AS MATERIALIZED (SELECT i, ${ORG_PICK} AS n, random() AS r, ${WHEN} AS at FROM generate_series(1, ${count}) i)
     SELECT s.*, o.id AS org FROM s JOIN bench_orgs o USING (n)`;
  const counts: Record<string, number> = {};
  const timed = async (table: string, text: string, params: unknown[] = []) => {
    const started = Date.now();
    const result = await q(text, params);
    counts[table] = (counts[table] ?? 0) + (result.rowCount ?? 0);
    log(`  seeded ${result.rowCount} ${table} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
  await timed(
    'agent_runs',
    `INSERT INTO agent_runs (id, org_id, agent_version_id, input, output, status, error, created_at, updated_at)
     SELECT gen_random_uuid(), org, $1, 'bench input', CASE WHEN r < 0.88 THEN 'bench output' END,
       CASE WHEN r < 0.88 THEN 'succeeded' WHEN r < 0.96 THEN 'failed' WHEN r < 0.98 THEN 'running' ELSE 'queued' END,
       CASE WHEN r < 0.88 THEN NULL WHEN r < 0.94 THEN 'OpenAI answered 500: bench' WHEN r < 0.96 THEN 'cancelled' END,
       at, at + (200 + 60000 * power(random(), 3)) * interval '1 millisecond'
     FROM (${rows(runs)}) x`,
    [tenant.versionId],
  );
  // Every document is in a knowledge base: each organisation's `Default`.
  await q(
    `INSERT INTO knowledge_bases (id, org_id, name, created_at, updated_at)
     SELECT gen_random_uuid(), id, 'Default', now(), now() FROM bench_orgs ON CONFLICT (org_id, name) DO NOTHING`,
  );
  await timed(
    'knowledge_documents',
    `INSERT INTO knowledge_documents (id, org_id, knowledge_base_id, title, content, status, failure_reason, chunk_count, created_at, updated_at)
     SELECT gen_random_uuid(), org, b.id, 'bench doc', 'bench content',
       CASE WHEN r < 0.95 THEN 'ready' WHEN r < 0.98 THEN 'failed' ELSE 'processing' END,
       CASE WHEN r >= 0.95 AND r < 0.98 THEN 'embedding provider unavailable' END, 3, at, at + interval '2 seconds'
     FROM (${rows(Math.round(runs / 10))}) x JOIN knowledge_bases b ON b.org_id = x.org AND b.name = 'Default'`,
  );
  await timed(
    'video_generations',
    `INSERT INTO video_generations (id, org_id, prompt, aspect_ratio, expand_prompt, state, provider, failure_reason, created_at, updated_at)
     SELECT gen_random_uuid(), org, 'bench prompt', '16:9', false,
       CASE WHEN r < 0.9 THEN 'completed' WHEN r < 0.97 THEN 'failed' WHEN r < 0.985 THEN 'processing' ELSE 'pending' END, 'local',
       CASE WHEN r >= 0.9 AND r < 0.97 THEN 'render failed' END, at, at + interval '40 seconds'
     FROM (${rows(Math.round(runs / 50))}) x`,
  );
  await timed(
    'webhook_endpoints',
    `INSERT INTO webhook_endpoints (id, org_id, url, enabled, secret, created_at, updated_at)
     SELECT gen_random_uuid(), o.id, 'https://hooks.example.com/' || o.n || '/' || e, true, 'whsec_bench', now() - interval '41 days', now()
     FROM bench_orgs o CROSS JOIN generate_series(1, 2) e`,
  );
  await q(`DROP TABLE IF EXISTS bench_deliveries`);
  await q(
    `CREATE TABLE bench_deliveries AS
     SELECT gen_random_uuid() AS id, gen_random_uuid() AS event_id, x.org, x.at, x.r,
       (SELECT id FROM webhook_endpoints e WHERE e.org_id = x.org ORDER BY e.url LIMIT 1 OFFSET (x.i % 2)) AS endpoint_id
     FROM (${rows(Math.round(runs / 5))}) x`,
  );
  await timed(
    'events',
    `INSERT INTO events (id, org_id, type, resource_id, data, created_at)
     SELECT event_id, org, 'agent_run.succeeded', gen_random_uuid(), '{}', at FROM bench_deliveries`,
  );
  await timed(
    'webhook_deliveries',
    `INSERT INTO webhook_deliveries (id, org_id, endpoint_id, event_id, event_type, status, attempt_count, last_status_code, last_error, delivered_at, created_at, updated_at)
     SELECT id, org, endpoint_id, event_id, 'agent_run.succeeded',
       CASE WHEN r < 0.93 THEN 'delivered' WHEN r < 0.97 THEN 'failed' ELSE 'pending' END,
       CASE WHEN r < 0.9 THEN 1 ELSE 2 END, CASE WHEN r < 0.93 THEN 200 ELSE 503 END,
       CASE WHEN r >= 0.93 THEN 'receiver answered 503' END, CASE WHEN r < 0.93 THEN at + interval '1 second' END,
       at, at + interval '5 seconds'
     FROM bench_deliveries`,
  );
  await timed(
    'webhook_attempts',
    `INSERT INTO webhook_attempts (id, org_id, delivery_id, attempt_number, started_at, duration_ms, status_code, error)
     SELECT gen_random_uuid(), org, id, a, at + (a - 1) * interval '5 seconds', 80,
       CASE WHEN a = 2 OR r >= 0.93 THEN 503 ELSE 200 END, NULL
     FROM bench_deliveries CROSS JOIN generate_series(1, 2) a WHERE a = 1 OR r >= 0.9`,
  );
  await q(`DROP TABLE bench_deliveries`);
  await timed(
    'token_entries',
    `INSERT INTO token_entries (id, org_id, kind, amount, delta, balance_after, reference_type, reference_id, reason, created_at)
     SELECT gen_random_uuid(), org, CASE WHEN r < 0.2 THEN 'grant' ELSE 'debit' END, 500000,
       CASE WHEN r < 0.2 THEN 500000 ELSE -500000 END, 1000000000,
       CASE WHEN r >= 0.2 THEN 'video_generation' END, CASE WHEN r >= 0.2 THEN gen_random_uuid() END,
       CASE WHEN r < 0.2 THEN 'bench grant' END, at
     FROM (${rows(Math.round(runs / 20))}) x`,
  );
  await timed(
    'token_entries',
    `INSERT INTO token_entries (id, org_id, kind, amount, delta, balance_after, reference_type, reference_id, refund_of, created_at)
     SELECT gen_random_uuid(), org_id, 'refund', amount, amount, 1000000000, reference_type, reference_id, id, created_at + interval '1 minute'
     FROM token_entries WHERE kind = 'debit' AND random() < 0.1`,
  );
  await timed(
    'api_keys',
    `INSERT INTO api_keys (id, org_id, name, lookup_id, secret_hash, scopes, hint, last_used_at, created_at)
     SELECT gen_random_uuid(), o.id, 'bench key ' || k, 'bench' || md5(o.id::text || k), md5(random()::text), '{runs:read}', 'pyl_bench', now(), now() - interval '41 days'
     FROM bench_orgs o CROSS JOIN generate_series(1, 3) k`,
  );
  // Every hour of 40 days for the large organisation's keys, one hour in ten for the others'.
  await timed(
    'api_key_request_counts',
    `INSERT INTO api_key_request_counts (org_id, key_id, hour, requests)
     SELECT k.org_id, k.id, h, 1 + floor(random() * 500)::int
     FROM api_keys k CROSS JOIN generate_series(date_trunc('hour', now() - interval '40 days'), date_trunc('hour', now()), interval '1 hour') h
     WHERE k.org_id = $1 OR random() < 0.1
     ON CONFLICT (key_id, hour) DO NOTHING`,
    [tenant.orgId],
  );
  for (const table of [
    'agent_runs',
    'knowledge_documents',
    'video_generations',
    'webhook_deliveries',
    'webhook_attempts',
    'token_entries',
    'api_keys',
    'api_key_request_counts',
    'events',
  ]) {
    const started = Date.now();
    await q(`VACUUM ANALYZE ${table}`);
    log(`  vacuumed ${table} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return counts;
}

/** The statements as UsageService sends them for a `*` key: all at once, each with its parameters. */
function statements(orgId: string): Array<[name: string, text: string, params: unknown[]]> {
  const now = Date.now();
  const [day, month] = [new Date(now - DAY_MS), new Date(now - 30 * DAY_MS)];
  const windows = [orgId, day, month];
  return [
    ['runs', USAGE_SQL.runs, windows],
    ['documents', USAGE_SQL.documents, windows],
    ['videos', USAGE_SQL.videos, windows],
    ['deliveries', USAGE_SQL.deliveries, windows],
    ['tokens', USAGE_SQL.tokens, windows],
    ['failingEndpoints', USAGE_SQL.failingEndpoints, [orgId, day]],
    ['recentFailures', USAGE_SQL.recentFailures, [orgId, ['agent_run', 'knowledge_document', 'video_generation', 'webhook_delivery']]],
    ['apiKeys', USAGE_SQL.apiKeys, windows],
  ];
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Heap Fetches'?: number;
  Plans?: PlanNode[];
}

/** Each scan in a plan as `<node type> <index or table>` (heap fetches of index-only scans in brackets). */
function scans(node: PlanNode, into: string[] = []): string[] {
  if (
    /Scan/.test(node['Node Type']) &&
    node['Node Type'] !== 'Values Scan' &&
    node['Node Type'] !== 'CTE Scan' &&
    node['Node Type'] !== 'Subquery Scan'
  ) {
    const heap = node['Heap Fetches'] !== undefined ? ` (heap fetches ${node['Heap Fetches']})` : '';
    into.push(`${node['Node Type']} ${node['Index Name'] ?? node['Relation Name'] ?? ''}${heap}`);
  }
  for (const child of node.Plans ?? []) scans(child, into);
  return into;
}

export const usageBenchmark: Benchmark = {
  name: 'usage',
  description:
    'GET /api/v1/usage for the large organisation (≈ 100 000 of 1 000 000 runs across 1 000 organisations, and the rest in proportion) through the real API vs the same statements run raw through pg',
  budgetMinutes: () => 20,
  async run(context: BenchContext): Promise<BenchReport> {
    const runCount = envInt('BENCH_USAGE_RUNS', 1_000_000);
    const requests = envInt('BENCH_USAGE_REQUESTS', 200);
    const warmup = envInt('BENCH_USAGE_WARMUP', 20);
    const stack = await context.stack();
    const http = await context.http();
    const tenant = await context.tenant();
    if (context.infra.databaseLabel.startsWith('embedded') && runCount > 100_000) {
      log(
        `warning: seeding ${runCount} runs into the embedded PGlite takes a long time; this benchmark is meant for DATABASE_URL=<native PostgreSQL>`,
      );
    }
    const pool = new Pool({ connectionString: context.infra.databaseUrl, max: 10 });
    try {
      const started = Date.now();
      log(`seeding ${runCount} runs across ${ORGS} organisations …`);
      const seeded = await seed(pool, tenant, runCount);
      const seedSeconds = (Date.now() - started) / 1000;
      log(`seeded in ${seedSeconds.toFixed(1)} s`);
      const orgSizes = (
        await pool.query<{ n: number; runs: number }>(
          `SELECT o.n, count(r.id)::int AS runs FROM bench_orgs o LEFT JOIN agent_runs r ON r.org_id = o.id GROUP BY o.n ORDER BY runs DESC`,
        )
      ).rows;
      const median = orgSizes[Math.floor(orgSizes.length / 2)]!;
      const medianOrgId = (await pool.query<{ id: string }>(`SELECT id FROM bench_orgs WHERE n = $1`, [median.n])).rows[0]!.id;
      const largeRuns = orgSizes.find((org) => org.n === 0)!.runs;
      log(`large organisation: ${largeRuns} runs; median organisation: ${median.runs}; largest other: ${orgSizes.find((org) => org.n !== 0)!.runs}`);

      const key = tenant.key;
      const medianKey = await createKey(http, medianOrgId, ['*']);
      const first = await http.get('/api/v1/usage', { token: key });
      assert.equal(first.status, 200, first.text);
      const raw = await pool.query(USAGE_SQL.runs, statements(tenant.orgId)[0]![2]);
      assert.equal(first.body.windows[1].runs.total, raw.rows[1].total, 'the API and the raw statement count the same runs');

      /** The API and the raw statements in turns, request by request, so that both see the same machine. */
      const time = async (token: string, orgId: string) => {
        const api = async () => {
          const response = await fetch(`${stack.url}/api/v1/usage`, { headers: { authorization: `Bearer ${token}` } });
          await response.arrayBuffer();
          assert.equal(response.status, 200);
        };
        const raw = () => Promise.all(statements(orgId).map(([, text, params]) => pool.query(text, params)));
        for (let i = 0; i < warmup; i++) await Promise.all([api(), raw()].map((promise) => promise.then(() => undefined)));
        const ms = { pylon: [] as number[], raw: [] as number[] };
        for (let i = 0; i < requests; i++) {
          for (const [side, once] of [
            ['pylon', api],
            ['raw', raw],
          ] as const) {
            const t0 = performance.now();
            await once();
            ms[side].push(performance.now() - t0);
          }
        }
        return { pylon: summarize(ms.pylon), raw: summarize(ms.raw) };
      };
      const { pylon: pylonLarge, raw: rawLarge } = await time(key, tenant.orgId);
      const { pylon: pylonMedian, raw: rawMedian } = await time(medianKey, medianOrgId);
      log(`large: API p50 ${pylonLarge.p50} ms p99 ${pylonLarge.p99} ms; raw p50 ${rawLarge.p50} ms p99 ${rawLarge.p99} ms`);

      const plans: Grid = {
        title: 'each statement for the large organisation: EXPLAIN ANALYZE (one run) and the scans its plan uses',
        header: ['statement', 'ms', 'scans'],
        rows: [],
      };
      const planText: Record<string, string[]> = {};
      for (const [name, text, params] of statements(tenant.orgId)) {
        const explained = await pool.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, params);
        const plan = (explained.rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode; 'Execution Time': number }>)[0]!;
        const used = [...new Set(scans(plan.Plan))];
        plans.rows.push([name, Math.round(plan['Execution Time'] * 100) / 100, used.join('; ')]);
        planText[name] = (await pool.query(`EXPLAIN ${text}`, params)).rows.map((row: Record<string, string>) => row['QUERY PLAN']!);
      }
      return {
        parameters: { runs: runCount, organisations: ORGS, largeOrgShare: LARGE_SHARE, requests, warmup, sequential: true, rawPoolSize: 10 },
        rows: [
          { metric: `large org (${largeRuns} runs) p50 ms`, pylon: pylonLarge.p50, baseline: rawLarge.p50 },
          { metric: 'large org p99 ms', pylon: pylonLarge.p99, baseline: rawLarge.p99 },
          { metric: `median org (${median.runs} runs) p50 ms`, pylon: pylonMedian.p50, baseline: rawMedian.p50 },
          { metric: 'median org p99 ms', pylon: pylonMedian.p99, baseline: rawMedian.p99 },
        ],
        tables: [plans],
        pylon: { large: pylonLarge, median: pylonMedian },
        baseline: { large: rawLarge, median: rawMedian, plans: planText },
        notes: [
          `seeded in ${seedSeconds.toFixed(0)} s: ${JSON.stringify(seeded)}`,
          'pylon: GET /api/v1/usage with a * key (every section), sequential requests after a warm-up; baseline: the same 8 statements (USAGE_SQL) sent at once on a pg pool of 10, as UsageService sends them; the two sides take turns request by request',
          'runs, documents, videos, deliveries and tokens are index-only scans of the (org_id, time) indexes of migration 1765300000000-usage; the failures come from partial indexes',
        ],
      };
    } finally {
      await pool.end();
    }
  },
};
