import type { LoggerOptions } from 'pino';
import { describeError } from './error-description';
import { maskSecrets, REDACTED, REDACTED_PATHS } from './secrets';
import { boundLine } from './truncation';

/** The key under which every line written while handling a request carries its id. */
export const REQUEST_ID_KEY = 'requestId';

/**
 * The pino options of every Pylon process (API and worker): credential headers and secret fields
 * redacted, errors described without their data, and every line — whatever slipped past the
 * rest — stripped of secret-looking text and cut to a bounded size just before it is written.
 */
export function pylonLoggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: REDACTED },
    serializers: { err: describeError, error: describeError },
    hooks: { streamWrite: (line) => boundLine(maskSecrets(line)) },
  };
}
