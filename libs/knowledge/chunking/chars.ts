const LF = 0x0a;
const CR = 0x0d;

/** The characters String.prototype.trim removes (the same set as the regex class \s). */
export function isWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

export function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isWhitespace(text.charCodeAt(i))) return false;
  return true;
}

/**
 * Line breaks in text[from, to), CRLF counting once. A paragraph separator (U+2029) or a form
 * feed (page break, common in text extracted from PDFs) counts twice: each ends a paragraph alone.
 */
export function countLineBreaks(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code === LF || code === 0x0b || code === 0x2028) count++;
    else if (code === CR) {
      count++;
      if (text.charCodeAt(i + 1) === LF) i++;
    } else if (code === 0x2029 || code === 0x0c) count += 2;
  }
  return count;
}

export function isSurrogatePairAt(text: string, i: number): boolean {
  const high = text.charCodeAt(i - 1);
  const low = text.charCodeAt(i);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}
