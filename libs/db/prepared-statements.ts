import { Client } from 'pg';

const statementNames = new Map<string, string>();

/**
 * Marks a statement as one to prepare: on each connection the server parses it once and, for a
 * plan that does not depend on the parameters' values, plans it once. Only for the hot,
 * fixed-text statements whose best plan is the same for every organisation (a row by its key, a
 * run's transitions); never for searches, whose plans depend on the organisation's size and on its
 * partial indexes. Returns the text unchanged, so a repository still hands TypeORM a string.
 */
export function prepared(sql: string): string {
  if (!statementNames.has(sql)) statementNames.set(sql, `pylon_${statementNames.size + 1}`);
  return sql;
}

/**
 * node-postgres's Client, sending the statements marked by `prepared` as named statements (it
 * parses a name once per connection and then only binds and executes). TypeORM's pool is given
 * this class (`extra.Client`), so the repositories' `query(text, parameters)` calls stay as they are.
 */
export class PreparingClient extends Client {
  override query = ((text: unknown, values?: unknown, ...rest: unknown[]) => {
    const send = super.query.bind(this) as (...args: unknown[]) => unknown;
    const name = typeof text === 'string' && Array.isArray(values) ? statementNames.get(text) : undefined;
    return name ? send({ name, text, values }, ...rest) : send(text, values, ...rest);
  }) as Client['query'];
}
