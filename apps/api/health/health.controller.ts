import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Client, Connection } from '@temporalio/client';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { Public } from '../auth/access.decorators';

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS).unref()),
  ]);
}

async function check(probe: () => Promise<unknown>): Promise<'ok' | 'unavailable'> {
  try {
    await withTimeout(probe());
    return 'ok';
  } catch {
    return 'unavailable';
  }
}

@ApiExcludeController()
@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly db: DataSource,
    private readonly temporal: Client,
  ) {}

  /** The process is up. */
  @Get('healthz')
  healthz() {
    return { status: 'ok' };
  }

  /** The database and Temporal answer: ready for traffic. */
  @Get('readyz')
  async readyz(@Res({ passthrough: true }) reply: FastifyReply) {
    const [database, temporal] = await Promise.all([
      check(() => this.db.query('SELECT 1')),
      check(async () => {
        const connection = this.temporal.connection as Connection;
        await connection.ensureConnected();
        await connection.healthService.check({});
      }),
    ]);
    const ready = database === 'ok' && temporal === 'ok';
    reply.status(ready ? 200 : 503);
    return { status: ready ? 'ok' : 'unavailable', checks: { database, temporal } };
  }
}
