import { countLineBreaks, isBlank } from './chars';
import { headingStarts } from './markdown';
import { forEachSegment, isWordCut, wordSegmenter } from './segments';
import { sentenceStarts } from './sentences';

/** How good a place to break: higher is better. */
export const Break = {
  /** Between two word segments with nothing in between (CJK words, or punctuation inside a URL). */
  Token: 1,
  Space: 2,
  Line: 3,
  Sentence: 4,
  Paragraph: 5,
  Heading: 6,
  /** After the last token of the text. */
  End: 7,
} as const;

/**
 * The text as a sequence of tokens (Intl.Segmenter word segments that are not all whitespace)
 * and the quality of breaking after each. Every chunk starts at a token start and ends at a token
 * end, so chunks fall on word boundaries and come out trimmed.
 */
export interface TextLayout {
  readonly count: number;
  readonly tokenStart: readonly number[];
  readonly tokenEnd: readonly number[];
  /** breakAfter[k] ranks ending a chunk after token k and starting the next at token k + 1. */
  readonly breakAfter: Uint8Array;
}

export function analyzeText(text: string): TextLayout {
  const tokenStart: number[] = [];
  const tokenEnd: number[] = [];
  forEachSegment(wordSegmenter, text, 0, text.length, isWordCut, (start, end) => {
    if (!isBlank(text, start, end)) {
      tokenStart.push(start);
      tokenEnd.push(end);
    }
  });

  const count = tokenStart.length;
  const breakAfter = new Uint8Array(count);
  const headings = headingStarts(text);
  const sentences = sentenceStarts(text);
  let h = 0;
  let s = 0;
  for (let k = 0; k < count - 1; k++) {
    const end = tokenEnd[k];
    const next = tokenStart[k + 1];
    while (h < headings.length && headings[h] < next) h++;
    while (s < sentences.length && sentences[s] < end) s++;
    const lineBreaks = next > end ? countLineBreaks(text, end, next) : 0;
    if (headings[h] === next) breakAfter[k] = Break.Heading;
    else if (lineBreaks >= 2) breakAfter[k] = Break.Paragraph;
    else if (s < sentences.length && sentences[s] <= next) breakAfter[k] = Break.Sentence;
    else if (lineBreaks === 1) breakAfter[k] = Break.Line;
    else breakAfter[k] = next > end ? Break.Space : Break.Token;
  }
  if (count > 0) breakAfter[count - 1] = Break.End;
  return { count, tokenStart, tokenEnd, breakAfter };
}
