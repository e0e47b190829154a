import { Logger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';
import { sqlText, truncate } from '@pylon/logging';

/**
 * TypeORM's logger, on the process's logger. TypeORM hands every method the query's parameters; none
 * of them is ever logged, only the SQL text. A failed query is logged at debug: the caller handles the
 * expected ones (a unique violation that means "already exists"), and an unexpected one is logged,
 * described the same safe way, by whoever it fails (the API's error filter, the worker's activity).
 */
export class SafeTypeOrmLogger implements TypeOrmLogger {
  private readonly logger = new Logger('Database');

  logQuery(): void {
    // Every query would be noise at any level; nothing to log.
  }

  logQueryError(error: string | Error, query: string): void {
    this.logger.debug({ err: error, query: sqlText(query) }, 'query failed');
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn({ durationMs: time, query: sqlText(query) }, 'slow query');
  }

  logSchemaBuild(message: string): void {
    this.logger.log(truncate(message));
  }

  logMigration(message: string): void {
    this.logger.log(truncate(message));
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    const text = truncate(typeof message === 'string' ? message : (JSON.stringify(message) ?? String(message)));
    if (level === 'warn') this.logger.warn(text);
    else this.logger.log(text);
  }
}
