/**
 * What one JSON body may hold, whatever its size in bytes: far beyond any real request of this API, and
 * small enough that nothing after the scan (parsing, the prototype-key check, validation) can be slow
 * or exhaust the stack on it.
 */
export const JSON_BODY_LIMITS = {
  /** Objects and arrays inside one another, the body itself being level 1. */
  depth: 32,
  /** Keys of one object (a document's metadata is at most 16 KiB, so it never comes close). */
  keysPerObject: 1_000,
  /** Items of one array. */
  itemsPerArray: 10_000,
  /** Values in the whole body: every object, array, string, number, boolean and null. */
  values: 100_000,
} as const;

export interface JsonScan {
  /** The limit the body breaks, as a sentence for Error-Detail; null when it keeps every one. */
  limit: string | null;
  /** The first key that one object holds twice (with the offset of its second occurrence), or null. */
  duplicateKey: { key: string; offset: number } | null;
  /** Why a number would not be stored as sent (JSON.parse would round or zero it), or null. */
  inexactNumber: string | null;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

interface Container {
  keys: Set<string> | null; // null for an array
  count: number;
  expectsKey: boolean;
}

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function isDelimiter(byte: number): boolean {
  return (
    isWhitespace(byte) ||
    byte === COMMA ||
    byte === COLON ||
    byte === CLOSE_OBJECT ||
    byte === CLOSE_ARRAY ||
    byte === OPEN_OBJECT ||
    byte === OPEN_ARRAY ||
    byte === QUOTE
  );
}

/**
 * One pass over a body's bytes, with a stack of its own (no recursion), before anything parses it:
 * whether it keeps JSON_BODY_LIMITS, and which key an object repeats (JSON.parse keeps the last one
 * silently; a gateway before us may have read the first). Structural characters are ASCII, so the
 * bytes of UTF-8 text never look like one. Text that is not JSON is scanned without complaint and
 * without harm: JSON.parse refuses it afterwards.
 */
export function scanJson(body: Uint8Array): JsonScan {
  const open: Container[] = [];
  let values = 0;
  let duplicateKey: JsonScan['duplicateKey'] = null;
  let inexactNumber: string | null = null;
  const result = (limit: string | null): JsonScan => ({ limit, duplicateKey, inexactNumber });

  /** Counts a value starting here; returns the broken limit, if any. */
  const startValue = (): string | null => {
    if (++values > JSON_BODY_LIMITS.values) return `the body holds more than ${JSON_BODY_LIMITS.values} values`;
    const parent = open[open.length - 1];
    if (parent && parent.keys === null && ++parent.count > JSON_BODY_LIMITS.itemsPerArray) {
      return `an array in the body has more than ${JSON_BODY_LIMITS.itemsPerArray} items`;
    }
    return null;
  };

  let i = 0;
  while (i < body.length) {
    const byte = body[i]!;
    if (isWhitespace(byte) || byte === COLON) {
      i++;
      continue;
    }
    const top = open[open.length - 1];
    if (byte === COMMA) {
      if (top?.keys) top.expectsKey = true;
      i++;
      continue;
    }
    if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      const broken = startValue();
      if (broken) return result(broken);
      if (top?.keys) top.expectsKey = false;
      if (open.length + 1 > JSON_BODY_LIMITS.depth) return result(`the body nests deeper than ${JSON_BODY_LIMITS.depth} levels`);
      open.push(byte === OPEN_OBJECT ? { keys: new Set(), count: 0, expectsKey: true } : { keys: null, count: 0, expectsKey: false });
      i++;
      continue;
    }
    if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      open.pop();
      i++;
      continue;
    }
    if (byte === QUOTE) {
      const start = i;
      i++;
      while (i < body.length && body[i] !== QUOTE) i += body[i] === BACKSLASH ? 2 : 1;
      i++; // past the closing quote
      if (top?.keys && top.expectsKey) {
        top.expectsKey = false;
        if (++top.count > JSON_BODY_LIMITS.keysPerObject) return result(`an object in the body has more than ${JSON_BODY_LIMITS.keysPerObject} keys`);
        const key = keyText(body, start, Math.min(i, body.length));
        if (key !== null) {
          if (top.keys.has(key)) duplicateKey ??= { key, offset: start };
          top.keys.add(key);
        }
        continue;
      }
      const broken = startValue();
      if (broken) return result(broken);
      continue;
    }
    // A number, true, false or null (or bytes that are not JSON): up to the next delimiter.
    const broken = startValue();
    if (broken) return result(broken);
    if (top?.keys) top.expectsKey = false;
    const start = i;
    i++;
    while (i < body.length && !isDelimiter(body[i]!)) i++;
    if (inexactNumber === null && (byte === MINUS || (byte >= DIGIT_0 && byte <= DIGIT_9))) inexactNumber = inexactNumberReason(body, start, i);
  }
  return result(null);
}

/** A key as JSON.parse reads it (escapes resolved), or null when the quoted text is not a JSON string. */
function keyText(body: Uint8Array, start: number, end: number): string | null {
  const quoted = Buffer.from(body.buffer, body.byteOffset + start, end - start).toString('utf8');
  if (!quoted.includes('\\')) return quoted.slice(1, -1);
  try {
    const key: unknown = JSON.parse(quoted);
    return typeof key === 'string' ? key : null;
  } catch {
    return null;
  }
}

/**
 * Why the number literal in body[start, end) would not survive as sent, or null: an integer beyond
 * 2^53 (a double rounds it) or a non-zero number below the smallest double (it becomes 0). Numbers
 * beyond the largest double become Infinity, which the storable-text check refuses after parsing.
 */
function inexactNumberReason(body: Uint8Array, start: number, end: number): string | null {
  const literal = Buffer.from(body.buffer, body.byteOffset + start, end - start).toString('latin1');
  const value = Number(literal);
  if (Number.isNaN(value)) return null; // not a JSON number: JSON.parse refuses it
  if (/^-?\d+$/.test(literal) && !Number.isSafeInteger(value)) {
    return 'an integer is beyond 2^53 and would lose digits as a JSON number; send it as a string';
  }
  if (value === 0 && /[1-9]/.test(literal.replace(/[eE].*$/, ''))) {
    return 'a number is smaller than the smallest double (about 5e-324) and would be stored as 0';
  }
  return null;
}
