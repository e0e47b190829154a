/** How deep a request body may nest: far beyond any real request, far below what recursion survives. */
export const MAX_BODY_DEPTH = 32;

/**
 * The same rule as a JSON Schema pattern, published on every string of a request (a schema pattern
 * matches code points, so a surrogate pair is one character outside the range and an unpaired half is in it).
 */
export const STORABLE_TEXT_PATTERN = '^[^\\u0000\\uD800-\\uDFFF]*$';

/** JavaScript's whitespace (what `\s` and trim() mean), spelled out so that every regex dialect reads it alike. */
const WHITESPACE = '\\t\\n\\v\\f\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF';

/** Storable text with at least one character that is not whitespace. */
export const NON_BLANK_TEXT_PATTERN = `^[^\\u0000\\uD800-\\uDFFF]*[^\\u0000\\uD800-\\uDFFF${WHITESPACE}][^\\u0000\\uD800-\\uDFFF]*$`;

/** A NUL character, or half of a surrogate pair without its other half: text PostgreSQL cannot store. */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

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
      if (UNSTORABLE.test(value)) return 'a string contains a NUL character or an unpaired surrogate';
      continue;
    }
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return 'a number is beyond the range of a double (about 1.8e308)';
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_BODY_DEPTH) return `the body nests deeper than ${MAX_BODY_DEPTH} levels`;
    for (const [key, item] of Object.entries(value)) {
      if (UNSTORABLE.test(key)) return 'a property name contains a NUL character or an unpaired surrogate';
      pending.push([item, depth + 1]);
    }
  }
  return null;
}
