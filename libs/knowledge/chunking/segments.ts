/*
 * Blockwise Intl.Segmenter.
 *
 * V8's segment iterator spends time proportional to the whole input on every step, so segmenting
 * a long string in one go is quadratic (1 MB of prose takes minutes). We segment bounded blocks
 * instead. Blocks are cut where the boundary cannot depend on context across the cut (see the
 * predicates), so the result equals segmenting the whole text.
 */

const LOCALE = 'en';
export const wordSegmenter = new Intl.Segmenter(LOCALE, { granularity: 'word' });
export const sentenceSegmenter = new Intl.Segmenter(LOCALE, { granularity: 'sentence' });
export const graphemeSegmenter = new Intl.Segmenter(LOCALE, { granularity: 'grapheme' });

/** Blocks grow to at least this size before we look for a cut; the iterator is fast below ~2,000. */
const BLOCK_SIZE = 1000;
/** Past this size without a safe cut, a block is cut anyway and re-synchronised (see forEachSegment). */
const MAX_BLOCK_SIZE = 4 * BLOCK_SIZE;
/**
 * Segment boundaries this far before a forced cut are trusted: word and grapheme rules look ahead
 * a few characters only. In theory a run of a dictionary-segmented script (Thai, CJK) this long
 * with no space, punctuation or newline could still be segmented differently than in the whole text.
 */
const RESYNC_MARGIN = 256;

export type CutPredicate = (text: string, i: number) => boolean;

/**
 * End of the block starting at `start`: the first position ≥ start + BLOCK_SIZE where `isCut`
 * holds, or `to`, or `start + maxBlock` when no cut is found before it.
 */
export function blockEnd(text: string, start: number, to: number, isCut: CutPredicate, maxBlock = Infinity): number {
  const last = Math.min(to, start + maxBlock);
  for (let i = start + BLOCK_SIZE; i < last; i++) if (isCut(text, i)) return i;
  return last;
}

/** Calls `visit` with the [start, end) of every segment of text[from, to), in order. */
export function forEachSegment(
  segmenter: Intl.Segmenter,
  text: string,
  from: number,
  to: number,
  isCut: CutPredicate,
  visit: (start: number, end: number) => void,
): void {
  let maxBlock = MAX_BLOCK_SIZE;
  for (let start = from; start < to;) {
    const end = blockEnd(text, start, to, isCut, maxBlock);
    const segments = segmenter.segment(text.slice(start, end));
    if (end === to || isCut(text, end)) {
      for (const { index, segment } of segments) visit(start + index, start + index + segment.length);
      start = end;
      maxBlock = MAX_BLOCK_SIZE;
      continue;
    }
    // No safe cut in reach: keep the segments that end well before the forced cut and restart at
    // the last of them; if one segment covers nearly the whole block (a huge blob), double the block.
    let resumeAt = start;
    for (const { index, segment } of segments) {
      const segmentEnd = start + index + segment.length;
      if (segmentEnd > end - RESYNC_MARGIN) break;
      visit(start + index, segmentEnd);
      resumeAt = segmentEnd;
    }
    maxBlock = resumeAt > start ? MAX_BLOCK_SIZE : maxBlock * 2;
    start = resumeAt;
  }
}

function isAsciiGraphic(code: number): boolean {
  return code > 0x20 && code < 0x7f;
}

/** Characters that start a segment fresh: not whitespace, Extend, Format or ZWJ (which attach backwards). */
function isPlainStart(code: number): boolean {
  return (
    isAsciiGraphic(code) ||
    (code >= 0x4e00 && code <= 0x9fff) || // CJK ideographs
    (code >= 0x3041 && code <= 0x3096) || // hiragana, without the combining voicing marks
    (code >= 0x30a1 && code <= 0x30fa) || // katakana
    (code >= 0xac00 && code <= 0xd7a3) // hangul syllables
  );
}

/** Word_Break=Other punctuation: no UAX #29 word rule joins it to, or looks through it at, a neighbour. */
function isWordBreakOther(code: number): boolean {
  switch (code) {
    case 0x21:
    case 0x23:
    case 0x24:
    case 0x25:
    case 0x26:
    case 0x28:
    case 0x29:
    case 0x2a:
    case 0x2b:
    case 0x2d:
    case 0x2f:
    case 0x3c:
    case 0x3d:
    case 0x3e:
    case 0x3f:
    case 0x40:
    case 0x5b:
    case 0x5c:
    case 0x5d:
    case 0x5e:
    case 0x60:
    case 0x7b:
    case 0x7c:
    case 0x7d:
    case 0x7e: // ! # $ % & ( ) * + - / < = > ? @ [ \ ] ^ ` { | } ~
    case 0x3001:
    case 0x3002:
    case 0x300c:
    case 0x300d:
    case 0x300e:
    case 0x300f:
    case 0x3010:
    case 0x3011:
    case 0xff01:
    case 0xff08:
    case 0xff09:
    case 0xff1f: // 、。「」『』【】！（）？
      return true;
    default:
      return false;
  }
}

function isNewline(code: number): boolean {
  return code === 0x0a || code === 0x0b || code === 0x0c || code === 0x85 || code === 0x2028 || code === 0x2029;
}

/**
 * Word boundaries never depend on context across: a newline (UAX #29 WB3a/b), a CR not followed
 * by LF, or a space or Word_Break=Other character followed by a character that starts a segment.
 */
export const isWordCut: CutPredicate = (text, i) => {
  const before = text.charCodeAt(i - 1);
  const after = text.charCodeAt(i);
  if (isNewline(before)) return true;
  if (before === 0x0d) return after !== 0x0a;
  return (before === 0x20 || isWordBreakOther(before)) && isPlainStart(after);
};

/** Two ASCII graphic characters are always separate grapheme clusters (GB999); so is anything after LF. */
export const isGraphemeCut: CutPredicate = (text, i) => {
  const before = text.charCodeAt(i - 1);
  return before === 0x0a || (isAsciiGraphic(before) && isAsciiGraphic(text.charCodeAt(i)));
};
