import { getMetadataArgsStorage, type DataSource } from 'typeorm';

/** `updated_at` moves forward with every change, even two changes within one clock tick. */
export const TOUCH_UPDATED_AT = `updated_at = GREATEST(clock_timestamp(), updated_at + interval '1 millisecond')`;

/**
 * How many of an organisation's rows of `table` are in `status`, counted up to `upTo` only: an index scan
 * that stops there, however long the backlog (what a backlog cap needs to know).
 */
export async function countInStatus(
  db: DataSource,
  table: 'agent_runs' | 'knowledge_documents',
  orgId: string,
  status: string,
  upTo: number,
): Promise<number> {
  const [row] = (await db.query(`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${table} WHERE org_id = $1 AND status = $2 LIMIT $3) counted`, [
    orgId,
    status,
    upTo,
  ])) as {
    n: number;
  }[];
  return row!.n;
}

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

/**
 * An entity's columns (or only `properties` of them) as property → column name, read from its TypeORM
 * decorators (its base classes' too), so SQL written by hand selects exactly what the entity declares.
 */
export function entityColumns<T>(entity: new () => T, properties?: ReadonlyArray<keyof T & string>): Record<string, string> {
  const classes: Function[] = [];
  for (let target: unknown = entity; typeof target === 'function' && target !== Function.prototype; target = Object.getPrototypeOf(target)) {
    classes.push(target);
  }
  const columns = getMetadataArgsStorage()
    .filterColumns(classes)
    .filter((column) => !properties || properties.includes(column.propertyName as keyof T & string));
  return Object.fromEntries(columns.map((column) => [column.propertyName, column.options.name ?? column.propertyName]));
}

/** A joined table's columns under `<prefix>.<entity property>` names, for `columnsWithPrefix` to collect. */
export function prefixedColumns(alias: string, prefix: string, columns: Record<string, string>): string {
  return Object.entries(columns)
    .map(([property, column]) => `${alias}.${column} AS "${prefix}.${property}"`)
    .join(', ');
}

/** The fields of one entity out of a joined row (see prefixedColumns); null when its id is null (no joined row). */
export function columnsWithPrefix<T extends object>(row: Record<string, unknown>, prefix: string, entity: T): T | null {
  if (row[`${prefix}.id`] === null) return null;
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith(`${prefix}.`)) (entity as Record<string, unknown>)[key.slice(prefix.length + 1)] = value;
  }
  return entity;
}
