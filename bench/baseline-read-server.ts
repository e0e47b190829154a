/**
 * Baseline of the read benchmark, run as a child process (like the API): a bare Fastify server
 * with one route doing the same single read of a run by id + org (the same columns as the API's
 * repository reads) through a `pg` Pool of the same size as the API's, answering the row as JSON.
 * No auth, no validation, no logging.
 * The read is sent as an unnamed statement, the way a bare route sends it; under /prepared the
 * same route sends it as a named statement, as Pylon's repository does.
 * Env: DATABASE_URL, PORT, POOL_SIZE (default 10 = the API's DB_POOL_SIZE default).
 */
import Fastify from 'fastify';
import { Pool } from 'pg';
import { RUN_COLUMNS } from '../libs/agent-runs/repositories/agent-run-row';
import { serveBaseline } from './baseline-server-main';

const SQL = `SELECT ${RUN_COLUMNS} FROM agent_runs WHERE id = $1 AND org_id = $2`;

serveBaseline('baseline-read-server', async () => {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
  const app = Fastify({ logger: false });
  for (const prepared of [false, true]) {
    app.get<{ Params: { orgId: string; runId: string } }>(`${prepared ? '/prepared' : ''}/orgs/:orgId/runs/:runId`, async (request, reply) => {
      const values = [request.params.runId, request.params.orgId];
      const { rows } = await (prepared ? pool.query({ name: 'read-run', text: SQL, values }) : pool.query(SQL, values));
      if (rows.length === 0) return reply.code(404).send({ error: 'not found' });
      return rows[0];
    });
  }
  return { app, pool };
});
