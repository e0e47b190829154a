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
 * Why a parsed JSON body cannot be accepted as it is, or null when it can: a string (value or key)
 * PostgreSQL could not store in a text or jsonb column, or a number beyond a double's range (JSON.parse
 * makes `1e400` Infinity, which would be stored as null). Iterative; the body's size and nesting are
 * already bounded by JSON_BODY_LIMITS. Never quotes the input.
 */
export function unstorableReason(body: unknown): string | null {
  const pending: unknown[] = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (!STORABLE.test(value)) return 'a string contains a NUL character or an unpaired surrogate';
      continue;
    }
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return 'a number is beyond the range of a double (about 1.8e308)';
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    for (const [key, item] of Object.entries(value)) {
      if (!STORABLE.test(key)) return 'a property name contains a NUL character or an unpaired surrogate';
      pending.push(item);
    }
  }
  return null;
}
