import { Client } from 'pg';
import { NamedQuery, type RowShapes } from './named-query';

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

/** Told of every statement the process's pool sends, by its label (`statementLabel`). */
export type StatementListener = (label: string) => void;

const statementListeners = new Set<StatementListener>();
/** Labels already computed, by statement text: the texts are the repositories' constants, few and fixed. */
const labels = new Map<string, string>();
/** Past this many distinct texts (statements built with literals in them), the rest share one label. */
export const MAX_STATEMENT_LABELS = 500;
export const OTHER_STATEMENTS = 'other';
const LABEL_CHARS = 120;

/**
 * What a statement is, for counting: its text with whitespace collapsed, cut to its first 120 characters
 * (parameters are never part of it). A text beyond the first MAX_STATEMENT_LABELS distinct ones is `other`.
 */
export function statementLabel(text: string): string {
  let label = labels.get(text);
  if (label !== undefined) return label;
  if (labels.size >= MAX_STATEMENT_LABELS) return OTHER_STATEMENTS;
  label = text.replace(/\s+/g, ' ').trim().slice(0, LABEL_CHARS);
  labels.set(text, label);
  return label;
}

/** Calls `listener` for every statement the pool's connections send from now on; returns how to stop. */
export function onStatementSent(listener: StatementListener): () => void {
  statementListeners.add(listener);
  return () => statementListeners.delete(listener);
}

function sent(text: unknown): void {
  if (statementListeners.size === 0) return;
  const label = typeof text === 'string' ? statementLabel(text) : OTHER_STATEMENTS;
  for (const listener of statementListeners) listener(label);
}

/**
 * node-postgres's Client, telling the `onStatementSent` listeners of every statement it sends (TypeORM's
 * `START TRANSACTION` and `COMMIT` included). TypeORM's pool is given this class (`extra.Client`).
 */
export class CountingClient extends Client {
  override query = ((text: unknown, ...rest: unknown[]) => {
    sent(typeof text === 'object' && text !== null && 'text' in text ? (text as { text: unknown }).text : text);
    return (super.query.bind(this) as (...args: unknown[]) => unknown)(text, ...rest);
  }) as Client['query'];
}

/**
 * A CountingClient sending the statements marked by `prepared` as named statements (it parses a name
 * once per connection and then only binds and executes), so the repositories' `query(text, parameters)`
 * calls stay as they are.
 */
export class PreparingClient extends Client {
  override query = ((text: unknown, values?: unknown, ...rest: unknown[]) => {
    sent(text);
    const name = typeof text === 'string' && Array.isArray(values) ? statementNames.get(text) : undefined;
    if (name && typeof rest[0] === 'function') return this.submitNamed(name, text as string, values as unknown[], rest[0] as QueryCallback);
    const send = super.query.bind(this) as (...args: unknown[]) => unknown;
    return name ? send({ name, text, values }, ...rest) : send(text, values, ...rest);
  }) as Client['query'];

  /**
   * The pool's path (it always passes a callback): the Query is built from the text and values and then
   * named, so pg does not copy a config object's property descriptors for every statement
   * (`cloneQueryConfig`, 10 of a read's 86 µs in pg on `bench request-cost`).
   */
  private submitNamed(name: string, text: string, values: unknown[], callback: QueryCallback): unknown {
    const query = new NamedQuery(name, text, values, callback, this.rowShapes);
    return (Client.prototype.query as (query: NamedQuery) => unknown).call(this, query);
  }

  /** The row shapes of this connection's named statements (see NamedQuery). */
  private readonly rowShapes: RowShapes = new Map();
}

type QueryCallback = (error: Error | undefined, result: unknown) => void;
