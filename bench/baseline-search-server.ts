/**
 * The HTTP baseline of the knowledge-search benchmark, run as a child process (like the API): a bare
 * Fastify server whose one route runs the repository's search statements (runSqlSearch, the SQL
 * baseline's own code) for one of the searches listed in SEARCHES_FILE (JSON, statements
 * precomputed; the request names it by its index, `{"search": 3}`, a body as small as the API's)
 * through a `pg` Pool of the API's size, and answers the rows as JSON. No auth, no validation, no
 * embedding, no logging: what any HTTP API in front of the same SQL pays at least.
 * Env: DATABASE_URL, PORT, SEARCHES_FILE, POOL_SIZE (default 10).
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { Pool } from 'pg';
import { serveBaseline } from './baseline-server-main';
import { runSqlSearch, type SqlSearch } from './knowledge-load.worker';

serveBaseline('baseline-search-server', async () => {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
  const app = Fastify({ logger: false });
  const searches = JSON.parse(readFileSync(process.env.SEARCHES_FILE!, 'utf8')) as SqlSearch[];
  app.post<{ Body: { search: number } }>('/search', async (request) => {
    const client = await pool.connect();
    try {
      return { matches: await runSqlSearch(client, searches[request.body.search]!) };
    } finally {
      client.release();
    }
  });
  return { app, pool };
});
