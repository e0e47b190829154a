/** How deep a request body may nest: far beyond any real request, far below what recursion survives. */
export const MAX_BODY_DEPTH = 32;

/**
 * A character PostgreSQL can store in text or jsonb: anything but NUL and half of a surrogate pair without
 * its other half. Read by code points (the `u` flag here, and JSON Schema patterns), a surrogate pair is one
 * character outside the range and an unpaired half is in it.
 */
const STORABLE_CHARACTER = '[^\\u0000\\uD800-\\uDFFF]';

/** JavaScript's whitespace (what `\s` and trim() mean), spelled out so that every regex dialect reads it alike. */
const WHITESPACE = '\\t\\n\\v\\f\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF';

/** Text PostgreSQL can store: checked on every string of a body here, and published on every string of a request. */
export const STORABLE_TEXT_PATTERN = `^${STORABLE_CHARACTER}*$`;

/** Storable text with at least one character that is not whitespace. */
export const NON_BLANK_TEXT_PATTERN = `^${STORABLE_CHARACTER}*[^\\u0000\\uD800-\\uDFFF${WHITESPACE}]${STORABLE_CHARACTER}*$`;

const STORABLE = new RegExp(STORABLE_TEXT_PATTERN, 'u');

/**
 * Why a parsed JSON body cannot be accepted as it is, or null when it can: nested deeper than
 * MAX_BODY_DEPTH, a string (value or key) PostgreSQL could not store in a text or jsonb column, or a
 * number beyond a double's range (JSON.parse makes `1e400` Infinity, which would be stored as null).
 * Iterative, so a hostile body cannot exhaust the stack here either. Never quotes the input.
 */
export function unstorableReason(body: unknown): string | null {
  const pending: Array<[value: unknown, depth: number]> = [[body, 1]];
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!;
    if (typeof value === 'string') {
      if (!STORABLE.test(value)) return 'a string contains a NUL character or an unpaired surrogate';
      continue;
    }
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return 'a number is beyond the range of a double (about 1.8e308)';
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_BODY_DEPTH) return `the body nests deeper than ${MAX_BODY_DEPTH} levels`;
    for (const [key, item] of Object.entries(value)) {
      if (!STORABLE.test(key)) return 'a property name contains a NUL character or an unpaired surrogate';
      pending.push([item, depth + 1]);
    }
  }
  return null;
}
