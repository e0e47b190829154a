/** Socket errors of a connection to the database: refused, reset, broken, timed out, no route. */
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** SQLSTATEs of a server that is going away or not there yet: admin_shutdown, crash_shutdown, cannot_connect_now. */
const SHUTDOWN_STATES = new Set(['57P01', '57P02', '57P03']);
/** What node-postgres says when a connection ends under a query, or the pool cannot connect in time. */
const LOST_CONNECTION = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/**
 * Whether an error means the database could not be reached or went away mid-query (restart, failover,
 * network), as opposed to a query it refused: the caller should retry shortly. TypeORM wraps the driver's
 * error in `driverError`.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const cause = (error as { driverError?: unknown })?.driverError ?? error;
  if (!(cause instanceof Error)) return false;
  const code = (cause as { code?: unknown }).code;
  if (typeof code === 'string' && (SOCKET_ERRORS.has(code) || SHUTDOWN_STATES.has(code) || code.startsWith('08'))) return true;
  return LOST_CONNECTION.test(cause.message);
}
