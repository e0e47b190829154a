import { Injectable } from '@nestjs/common';
import { Client, Connection } from '@temporalio/client';
import { DataSource } from 'typeorm';
import { PylonConfig } from '@pylon/config';
import { TaskQueueBacklogReader } from '@pylon/temporal';
import { queueReports, type QueueReport } from './queue-readiness';

const CHECK_TIMEOUT_MS = 2_000;

export type CheckResult = 'ok' | 'unavailable';

export interface Readiness {
  status: 'ok' | 'unavailable';
  checks: { database: CheckResult; temporal: CheckResult; queues: CheckResult | 'backlogged' };
  /** Every kind's task queue by name; empty when the backlog could not be read. */
  queues: Record<string, QueueReport>;
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS).unref())]);
}

async function check(probe: () => Promise<unknown>): Promise<CheckResult> {
  try {
    await withTimeout(probe());
    return 'ok';
  } catch {
    return 'unavailable';
  }
}

/**
 * Ready for traffic: the database and Temporal answer, and no task queue's backlog passed
 * READY_MAX_QUEUE_BACKLOG. A backlog that cannot be read is reported, but by itself keeps nobody
 * out of service (Temporal being down already does). Every check gives up after 2 s.
 */
@Injectable()
export class ReadinessService {
  constructor(
    private readonly db: DataSource,
    private readonly temporal: Client,
    private readonly backlog: TaskQueueBacklogReader,
    private readonly config: PylonConfig,
  ) {}

  async check(): Promise<Readiness> {
    const [database, temporal, queues] = await Promise.all([
      check(() => this.db.query('SELECT 1')),
      check(async () => {
        const connection = this.temporal.connection as Connection;
        await connection.ensureConnected();
        await connection.healthService.check({});
      }),
      this.backlog.read(0, CHECK_TIMEOUT_MS).then(
        (backlogs) => queueReports(backlogs, this.config.readyMaxQueueBacklog),
        () => undefined,
      ),
    ]);
    const backlogged = Object.values(queues ?? {}).some((queue) => queue.status === 'backlogged');
    const ready = database === 'ok' && temporal === 'ok' && !backlogged;
    return {
      status: ready ? 'ok' : 'unavailable',
      checks: { database, temporal, queues: !queues ? 'unavailable' : backlogged ? 'backlogged' : 'ok' },
      queues: queues ?? {},
    };
  }
}
