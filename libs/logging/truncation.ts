/** The longest string a log line keeps whole: messages, URLs, error texts. */
export const MAX_LOG_STRING_CHARS = 1_000;
/** The longest log line written; a longer one is cut down to its essentials. */
export const MAX_LOG_LINE_BYTES = 8_192;
/** How long strings become when a line is still too long after the usual truncation. */
const SHRUNK_STRING_CHARS = 200;
/** The fields a line cut down to its essentials keeps. */
const ESSENTIAL_FIELDS = ['level', 'time', 'pid', 'hostname', 'requestId', 'context', 'msg'];

export function truncate(text: string, maxChars = MAX_LOG_STRING_CHARS): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}… [truncated ${text.length - maxChars} chars]`;
}

/**
 * A serialized JSON log line of at most MAX_LOG_LINE_BYTES: a longer one has its long strings cut,
 * and if that is not enough keeps only its essential fields. Either way it says it was truncated.
 */
export function boundLine(line: string, maxBytes = MAX_LOG_LINE_BYTES): string {
  if (line.length <= maxBytes / 3 || Buffer.byteLength(line) <= maxBytes) return line;
  const originalBytes = Buffer.byteLength(line);
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return `${JSON.stringify({ msg: truncate(line, SHRUNK_STRING_CHARS), truncated: { originalBytes } })}\n`;
  }
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    return `${JSON.stringify({ msg: truncate(line, SHRUNK_STRING_CHARS), truncated: { originalBytes } })}\n`;
  }
  const shrunk = `${JSON.stringify({ ...(shrinkStrings(entry, 0) as object), truncated: { originalBytes } })}\n`;
  if (Buffer.byteLength(shrunk) <= maxBytes) return shrunk;
  const essentials: Record<string, unknown> = {};
  for (const field of ESSENTIAL_FIELDS) {
    const value = (entry as Record<string, unknown>)[field];
    if (value !== undefined) essentials[field] = typeof value === 'string' ? truncate(value, SHRUNK_STRING_CHARS) : value;
  }
  return `${JSON.stringify({ ...essentials, truncated: { originalBytes, fieldsDropped: true } })}\n`;
}

/** Parsed JSON, every string cut to SHRUNK_STRING_CHARS; deep nesting is summarised, not walked. */
function shrinkStrings(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return truncate(value, SHRUNK_STRING_CHARS);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= 4) return '[nested too deep]';
  if (Array.isArray(value)) {
    const items = value.slice(0, 20).map((item) => shrinkStrings(item, depth + 1));
    return value.length > 20 ? [...items, `… ${value.length - 20} more`] : items;
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shrinkStrings(item, depth + 1)]));
}
