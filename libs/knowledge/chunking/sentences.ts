import { blockEnd, sentenceSegmenter } from './segments';

/** Longer sentence blocks are cut anyway: sentence ends only rank breaks, so a rare miss is harmless. */
const MAX_SENTENCE_BLOCK = 8000;

const LINE_BREAKS = /[\n\r\u2028\u2029\v\f]/g;

function isAsciiUpper(code: number): boolean {
  return code >= 0x41 && code <= 0x5a;
}

/** Not a closing bracket or quote, which would still belong to the previous sentence. */
function isLetterStart(code: number): boolean {
  return (
    isAsciiUpper(code) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0x3041 && code <= 0x3096) ||
    (code >= 0x30a1 && code <= 0x30fa)
  );
}

/** Positions where a sentence certainly starts: ". A", a paragraph start, or after 。！？ in CJK text. */
function isSentenceCut(text: string, i: number): boolean {
  const before = text.charCodeAt(i - 1);
  const after = text.charCodeAt(i);
  if (before === 0x20 || before === 0x0a) {
    const terminal = text.charCodeAt(i - 2);
    if ((terminal === 0x2e || terminal === 0x21 || terminal === 0x3f) && isAsciiUpper(after)) return true;
    return before === 0x0a && (terminal === 0x0a || (terminal === 0x0d && text.charCodeAt(i - 3) === 0x0a));
  }
  return (before === 0x3002 || before === 0xff01 || before === 0xff1f) && isLetterStart(after);
}

/**
 * Sorted positions where a sentence starts (position 0 excluded). Single line breaks are read as
 * spaces: in hard-wrapped prose a newline ends a line, not a sentence, while Unicode sentence
 * segmentation would break after every one. Lists and code lines still rank as line breaks.
 */
export function sentenceStarts(text: string): number[] {
  const starts: number[] = [];
  for (let start = 0; start < text.length;) {
    const end = blockEnd(text, start, text.length, isSentenceCut, MAX_SENTENCE_BLOCK);
    if (start > 0 && isSentenceCut(text, start)) starts.push(start);
    const block = text.slice(start, end).replace(LINE_BREAKS, ' ');
    for (const { index } of sentenceSegmenter.segment(block)) if (index > 0) starts.push(start + index);
    start = end;
  }
  return starts;
}
