const SPACE = 0x20;
const TAB = 0x09;
const HASH = 0x23;
const BACKTICK = 0x60;
const TILDE = 0x7e;
const LF = 0x0a;
const CR = 0x0d;

function lineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === LF || code === CR) return i;
  }
  return text.length;
}

function runLength(text: string, from: number, to: number, code: number): number {
  let i = from;
  while (i < to && text.charCodeAt(i) === code) i++;
  return i - from;
}

/**
 * Sorted positions of the first `#` of every ATX heading (`#`…`######` then a space, a tab or the
 * end of the line, indented at most three spaces). Lines inside fenced code blocks are skipped:
 * there `# …` is usually a shell or Python comment.
 */
export function headingStarts(text: string): number[] {
  const starts: number[] = [];
  let fenceChar = 0;
  let fenceLength = 0;
  const byteOrderMark = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let lineStart = byteOrderMark; lineStart < text.length;) {
    const end = lineEnd(text, lineStart);
    const indent = runLength(text, lineStart, Math.min(end, lineStart + 4), SPACE);
    if (indent <= 3) {
      const at = lineStart + indent;
      const first = text.charCodeAt(at);
      if (first === BACKTICK || first === TILDE) {
        const length = runLength(text, at, end, first);
        if (length >= 3) {
          if (fenceChar === 0) {
            fenceChar = first;
            fenceLength = length;
          } else if (first === fenceChar && length >= fenceLength && text.slice(at + length, end).trim() === '') {
            fenceChar = 0;
          }
        }
      } else if (first === HASH && fenceChar === 0) {
        const level = runLength(text, at, end, HASH);
        const next = text.charCodeAt(at + level);
        if (level <= 6 && (at + level === end || next === SPACE || next === TAB)) starts.push(at);
      }
    }
    lineStart = text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
  }
  return starts;
}
