import { toSql } from 'pgvector';

/** The literals of frozen vectors (cached query embeddings), computed once per vector. */
const literals = new WeakMap<readonly number[], string>();

/**
 * pgvector's text form of a vector, for a `$n::vector` parameter. Formatting a few hundred doubles
 * is a measurable share of a small search's CPU (bench knowledge-search: ~7% of the API's), and a
 * repeated query arrives as the same frozen vector, so its literal is remembered with it. A vector
 * that is not frozen could still change, so it is formatted every time.
 */
export function vectorLiteral(vector: readonly number[]): string {
  if (!Object.isFrozen(vector)) return format(vector);
  let literal = literals.get(vector);
  if (literal === undefined) {
    literal = format(vector);
    literals.set(vector, literal);
  }
  return literal;
}

function format(vector: readonly number[]): string {
  return toSql(vector as number[]) as string;
}
