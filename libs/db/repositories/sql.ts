/** `updated_at` moves forward with every change, even two changes within one clock tick. */
export const TOUCH_UPDATED_AT = `updated_at = GREATEST(clock_timestamp(), updated_at + interval '1 millisecond')`;

/**
 * The rows of a raw `query`: TypeORM's postgres driver answers UPDATE/DELETE … RETURNING with
 * `[rows, affectedCount]` and SELECT/INSERT with the rows themselves.
 */
export function returnedRows<T = unknown>(result: unknown): T[] {
  const rows = result as unknown[];
  return (Array.isArray(rows[0]) ? rows[0] : rows) as T[];
}

/**
 * A timestamptz column as the text `Date#toISOString` gives for the `Date` node-pg reads from it (UTC,
 * milliseconds truncated), so JSON written by a statement matches the API's views of the same row.
 */
export function isoTimestamp(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
