import type { PGlite } from '@electric-sql/pglite';
import type { SessionLock } from './session-lock';

/**
 * The tables due for what PostgreSQL's autovacuum would do, by its default thresholds: analyzed once more
 * than 50 + 10% of their rows changed since the last ANALYZE, vacuumed (and analyzed) once more than
 * 50 + 20% of their rows are dead.
 */
const TABLES_DUE = `
  SELECT format('%I.%I', schemaname, relname) AS "table",
         n_dead_tup > 50 + 0.2 * n_live_tup AS "vacuum"
    FROM pg_stat_user_tables
   WHERE n_dead_tup > 50 + 0.2 * n_live_tup OR n_mod_since_analyze > 50 + 0.1 * n_live_tup
   ORDER BY relname`;

/** What one pass did to a table. */
export interface TableMaintained {
  table: string;
  action: 'VACUUM (ANALYZE)' | 'ANALYZE';
}

/**
 * Autovacuum for the embedded database. PGlite is one PostgreSQL session with no background workers, so
 * nothing else ever analyzes or vacuums its tables: without statistics the planner ties between indexes and
 * can read a run by its organisation's index (every run of the organisation) instead of by its id; without
 * vacuum, every updated row stays behind as a dead one. A pass every `intervalMs` finds the tables past
 * autovacuum's thresholds and treats them one at a time, each between two clients' turns on the session.
 */
export class TableMaintenance {
  private timer: NodeJS.Timeout | undefined;
  /** The pass running, if any: a tick that comes while one runs is skipped. */
  private pass: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly db: Pick<PGlite, 'query' | 'exec'>,
    private readonly lock: SessionLock,
    private readonly warn: (message: string, error?: unknown) => void,
  ) {}

  /** Runs a pass every `intervalMs` (0: never). */
  start(intervalMs: number): void {
    if (intervalMs <= 0) return;
    this.timer = setInterval(() => {
      this.pass ??= this.runPass()
        .then(
          () => undefined,
          (error: unknown) => this.warn('table maintenance failed', error),
        )
        .finally(() => (this.pass = undefined));
    }, intervalMs);
    this.timer.unref();
  }

  /** Stops the passes; resolves once the one running (if any) has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.pass;
  }

  /** One pass: each table past a threshold is vacuumed or analyzed, holding the session for that table only. */
  async runPass(): Promise<TableMaintained[]> {
    const due = await this.onSession(async () => (await this.db.query<{ table: string; vacuum: boolean }>(TABLES_DUE)).rows);
    const done: TableMaintained[] = [];
    for (const { table, vacuum } of due) {
      if (this.stopped) break;
      const action = vacuum ? 'VACUUM (ANALYZE)' : 'ANALYZE';
      await this.onSession(() => this.db.exec(`${action} ${table}`));
      done.push({ table, action });
    }
    return done;
  }

  private async onSession<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.lock.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }
}
