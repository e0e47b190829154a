import { maskSecrets } from './secrets';
import { truncate } from './truncation';

const MAX_STACK_CHARS = 2_000;
const MAX_QUERY_CHARS = 500;
const MAX_CAUSE_DEPTH = 2;

/** What a log line says about an error: never its other properties, which may carry data. */
export interface ErrorDescription {
  type: string;
  message: string;
  code?: string | number;
  statusCode?: number;
  /** Database errors: which constraint, table and column, and the SQL text (never its parameters). */
  constraint?: string;
  table?: string;
  column?: string;
  query?: string;
  stack?: string;
  cause?: ErrorDescription;
}

/**
 * The pino serializer for errors. The standard one copies every enumerable property, and a database
 * error has a lot: TypeORM's QueryFailedError carries the `parameters` of the failed query (user
 * content, key hashes, webhook secrets of the row being inserted), and PostgreSQL's `detail` quotes the
 * failing row ("Failing row contains (…)", "Key (key_hash)=(…) already exists"). This keeps an allow-list:
 * type, message, code, constraint, table, column, the bounded SQL text, the stack and the cause.
 */
export function describeError(error: unknown, depth = 0): ErrorDescription {
  // pino-http hands over the standard serializer's copy; its `raw` is the error itself.
  const raw = (error as { raw?: unknown } | null)?.raw ?? error;
  if (raw === null || typeof raw !== 'object') return { type: typeof raw, message: bounded(String(raw)) };
  const fields = raw as Record<string, unknown>;
  const driverError = (fields.driverError ?? {}) as Record<string, unknown>;
  const description: ErrorDescription = {
    type: typeName(raw),
    message: bounded(stringField(fields, 'message') ?? ''),
  };
  const code = fields.code ?? driverError.code;
  if (typeof code === 'string' || typeof code === 'number') description.code = typeof code === 'string' ? bounded(code, 100) : code;
  if (typeof fields.statusCode === 'number') description.statusCode = fields.statusCode;
  for (const field of ['constraint', 'table', 'column'] as const) {
    const value = stringField(fields, field) ?? stringField(driverError, field);
    if (value) description[field] = bounded(value, 200);
  }
  const query = stringField(fields, 'query');
  if (query) description.query = sqlText(query);
  const frames = stackFrames(stringField(fields, 'stack') ?? '');
  if (frames) description.stack = bounded(frames, MAX_STACK_CHARS);
  const cause = fields.cause;
  if (cause !== undefined && cause !== raw && depth < MAX_CAUSE_DEPTH) description.cause = describeError(cause, depth + 1);
  return description;
}

/** SQL text for a log line: on one line, bounded, and only the text — a query's parameters are never logged. */
export function sqlText(query: string): string {
  return bounded(query.replace(/\s+/g, ' ').trim(), MAX_QUERY_CHARS);
}

function typeName(value: object): string {
  const type = (value as { type?: unknown }).type;
  if (typeof type === 'string') return type;
  return value.constructor?.name ?? 'Object';
}

function stringField(fields: Record<string, unknown>, name: string): string | undefined {
  const value = fields[name];
  return typeof value === 'string' ? value : undefined;
}

/** The frames of a stack without its first line, which repeats the (possibly huge) message. */
function stackFrames(stack: string): string {
  const firstFrame = stack.indexOf('\n    at ');
  return firstFrame >= 0 ? stack.slice(firstFrame + 1) : '';
}

function bounded(text: string, maxChars?: number): string {
  return truncate(maskSecrets(text), maxChars);
}
