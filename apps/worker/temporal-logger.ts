import type { LogLevel, LogMetadata, Logger } from '@temporalio/worker';
import type { Logger as PinoLogger } from 'pino';

const PINO_METHOD = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;

/** The SDK's warning for a Worker that runs activities only, as the knowledge extraction lane's does by design. */
const ACTIVITY_ONLY_WORKER = 'No workflows registered, not polling for workflow tasks';

/**
 * Temporal's log lines (the worker's, the activities' and the workflows') on the process's pino logger,
 * so they get its redaction and bounded size. Temporal's default logger prints its metadata whole,
 * and "Activity failed" metadata holds the error: a failed query's parameters with it.
 */
export class TemporalPinoLogger implements Logger {
  constructor(private readonly pino: PinoLogger) {}

  log(level: LogLevel, message: string, meta?: LogMetadata): void {
    const method = level === 'WARN' && message === ACTIVITY_ONLY_WORKER ? 'debug' : PINO_METHOD[level];
    // The SDK logs every activation and activity at TRACE and DEBUG: not copied when the level drops them.
    if (this.pino.isLevelEnabled(method)) this.pino[method]({ ...meta }, message);
  }

  trace(message: string, meta?: LogMetadata): void {
    this.log('TRACE', message, meta);
  }

  debug(message: string, meta?: LogMetadata): void {
    this.log('DEBUG', message, meta);
  }

  info(message: string, meta?: LogMetadata): void {
    this.log('INFO', message, meta);
  }

  warn(message: string, meta?: LogMetadata): void {
    this.log('WARN', message, meta);
  }

  error(message: string, meta?: LogMetadata): void {
    this.log('ERROR', message, meta);
  }
}
