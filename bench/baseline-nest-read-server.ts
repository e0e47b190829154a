/**
 * The framework's floor under the read benchmark, run as a child process (like the API): a bare Nest
 * application on the same Fastify adapter the API uses (Nest's middleware layer skipped, as the API
 * skips it), with one controller whose route runs the same prepared read as baseline-read-server's
 * `/prepared` route through a `pg` Pool of the same size, and answers the row as JSON. No guard, pipe,
 * interceptor, hook, validation or logging: what Nest's router costs in front of that read.
 * Env: DATABASE_URL, PORT, POOL_SIZE (default 10 = the API's DB_POOL_SIZE default).
 */
import 'reflect-metadata';
import { Controller, Get, Inject, Module, NotFoundException, Param } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Pool } from 'pg';
import { RUN_COLUMNS } from '../libs/agent-runs/repositories/agent-run-row';
import { serveBaseline } from './baseline-server-main';

const SQL = `SELECT ${RUN_COLUMNS} FROM agent_runs WHERE id = $1 AND org_id = $2`;

@Controller('prepared/orgs/:orgId/runs')
class ReadController {
  constructor(@Inject(Pool) private readonly pool: Pool) {}

  @Get(':runId')
  async read(@Param('orgId') orgId: string, @Param('runId') runId: string): Promise<unknown> {
    const { rows } = await this.pool.query({ name: 'read-run', text: SQL, values: [runId, orgId] });
    if (rows.length === 0) throw new NotFoundException();
    return rows[0];
  }
}

serveBaseline('baseline-nest-read-server', async () => {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });

  @Module({ controllers: [ReadController], providers: [{ provide: Pool, useValue: pool }] })
  class ReadModule {}

  const app = await NestFactory.create<NestFastifyApplication>(ReadModule, new FastifyAdapter({ skipMiddie: true }), { logger: false });
  await app.init();
  return { app: app.getHttpAdapter().getInstance(), pool };
});
