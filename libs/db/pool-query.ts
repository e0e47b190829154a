import type { Pool } from 'pg';
import { QueryFailedError, type DataSource } from 'typeorm';

/**
 * One statement on the DataSource's pool, without a TypeORM QueryRunner: for the hottest statements (a run
 * a caller polls, a run's transitions, which every run makes), where taking a QueryRunner, connecting it,
 * timing and wrapping the result, and releasing it cost as much CPU as the driver's own work. The statement
 * still goes through the pool's clients, so a `prepared` one is sent as a named statement; a failure is
 * TypeORM's QueryFailedError, as from `DataSource.query`. Never inside a transaction: that needs the
 * transaction's QueryRunner.
 */
export async function queryPool<Row>(db: DataSource, sql: string, parameters: unknown[]): Promise<Row[]> {
  const pool = (db.driver as unknown as { master: Pool }).master;
  try {
    return (await pool.query(sql, parameters)).rows as Row[];
  } catch (error) {
    throw new QueryFailedError(sql, parameters, error as Error);
  }
}
