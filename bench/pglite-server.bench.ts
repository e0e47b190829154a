/**
 * The embedded database's wire. With no DATABASE_URL, Pylon's processes reach PGlite through
 * libs/pglite-server (the PostgreSQL protocol on a local socket, one session shared by all clients).
 * This measures what that wire costs: `node-postgres` clients sending the read Pylon's API sends most
 * (a run by id and organisation, extended protocol) through the server, against the same statement
 * through PGlite's own `query` in process, on a PGlite of its own with the same rows. Both in this
 * process, one side after the other; CPU is this process's (both sides' client and PGlite).
 */
import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { Pool } from 'pg';
import { PgliteServer } from '@pylon/pglite-server';
import { envInt, log, round, type Benchmark, type BenchReport } from './support';

const ROWS = 1_000;
const SETUP = [
  `CREATE TABLE runs (id uuid PRIMARY KEY, org_id uuid NOT NULL, input text NOT NULL, output text, status text NOT NULL, created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now())`,
  `INSERT INTO runs (id, org_id, input, output, status) SELECT gen_random_uuid(), '00000000-0000-4000-8000-000000000001', 'What is Pylon? ' || g, repeat('An answer. ', 20), 'succeeded' FROM generate_series(1, ${ROWS}) g`,
];
const READ = 'SELECT id, org_id, input, output, status, created_at, updated_at FROM runs WHERE id = $1 AND org_id = $2';
const ORG = '00000000-0000-4000-8000-000000000001';

interface Side {
  queriesPerSecond: number;
  cpuMsPerQuery: number;
  meanMs: number;
}

/** `clients` closed loops of `query` for `seconds` (after 1 s unmeasured). */
async function load(clients: number, seconds: number, ids: string[], query: (id: string) => Promise<unknown>): Promise<Side> {
  const loop = async (until: number) => {
    let done = 0;
    for (let i = 0; performance.now() < until; i++, done++) await query(ids[i % ids.length]!);
    return done;
  };
  await Promise.all(Array.from({ length: clients }, () => loop(performance.now() + 1_000)));
  const cpu = process.cpuUsage();
  const started = performance.now();
  const counts = await Promise.all(Array.from({ length: clients }, () => loop(started + seconds * 1_000)));
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const queries = counts.reduce((a, b) => a + b, 0);
  return {
    queriesPerSecond: round((queries * 1_000) / wallMs, 0),
    cpuMsPerQuery: round((used.user + used.system) / 1_000 / queries, 3),
    meanMs: round((wallMs * clients) / queries, 3),
  };
}

async function rowIds(query: (sql: string) => Promise<{ rows: { id: string }[] }>): Promise<string[]> {
  return (await query('SELECT id FROM runs')).rows.map((row) => row.id);
}

export const pgliteServerBenchmark: Benchmark = {
  name: 'pglite-server',
  description:
    "the embedded database's wire: a run read through Pylon's PGlite server with node-postgres vs the same statement through PGlite's own query in process",
  budgetMinutes: () => 3,
  async run(): Promise<BenchReport> {
    const seconds = envInt('BENCH_PGLITE_SECONDS', 5);
    const concurrency = [1, 4];
    const server = await PgliteServer.start({});
    const pool = new Pool({ connectionString: server.url, max: 4 });
    const direct = await PGlite.create();
    try {
      for (const statement of SETUP) {
        await pool.query(statement);
        await direct.exec(statement);
      }
      const wireIds = await rowIds((sql) => pool.query(sql));
      const directIds = await rowIds((sql) => direct.query(sql));
      const wire: Record<number, Side> = {};
      const inProcess: Record<number, Side> = {};
      for (const clients of concurrency) {
        log(`pglite-server: ${clients} client(s), ${seconds} s per side`);
        wire[clients] = await load(clients, seconds, wireIds, (id) => pool.query(READ, [id, ORG]));
        inProcess[clients] = await load(clients, seconds, directIds, (id) => direct.query(READ, [id, ORG]));
      }
      const unknown = await pool.query(READ, [randomUUID(), ORG]);
      if (unknown.rowCount !== 0) throw new Error('an unknown id was found');
      const rows = concurrency.flatMap((clients) => [
        {
          metric: `${clients} client(s): queries/s`,
          pylon: wire[clients]!.queriesPerSecond,
          baseline: inProcess[clients]!.queriesPerSecond,
          digits: 0,
        },
        {
          metric: `${clients} client(s): CPU ms per query`,
          pylon: wire[clients]!.cpuMsPerQuery,
          baseline: inProcess[clients]!.cpuMsPerQuery,
          digits: 3,
        },
      ]);
      return {
        parameters: { rows: ROWS, seconds, concurrency, statement: READ },
        rows,
        pylon: { side: 'node-postgres Pool (4) → libs/pglite-server → PGlite', byClients: wire },
        baseline: { side: "PGlite's query() in process (no wire)", byClients: inProcess },
        notes: ['Both sides run in this process, one after the other: CPU per query counts the client, the server and PGlite together.'],
      };
    } finally {
      await pool.end();
      await server.stop();
      await direct.close();
    }
  },
};
