import { analyzeText } from './boundaries';
import { graphemeBoundaries, hardSplitPoint } from './graphemes';
import { validateOptions } from './options';
import { startAfterBreak, startAfterHardSplit } from './overlap';
import { selectBreak } from './select-break';
import { type ChunkingOptions, type TextChunk } from './types';

/**
 * Splits text (plain or Markdown) into chunks of at most targetSize UTF-16 code units, breaking
 * preferably before headings, then at paragraph breaks, sentence ends, line breaks and word
 * boundaries. Only a word longer than targetSize is cut inside, between grapheme clusters.
 * Pure and deterministic; linear in the length of the text.
 */
export function chunkText(text: string, options: ChunkingOptions): TextChunk[] {
  const { targetSize, overlap } = validateOptions(options);
  const layout = analyzeText(text);
  const { count, tokenStart, tokenEnd } = layout;
  const chunks: TextChunk[] = [];
  const push = (start: number, end: number) => chunks.push({ index: chunks.length, content: text.slice(start, end), start, end });

  let oversized = -1;
  let oversizedBounds: number[] = [];
  let start = count > 0 ? tokenStart[0] : 0;
  let previousEnd = -1;
  // The first token whose end lies beyond the previous chunk: every chunk must end further on.
  let first = 0;
  while (first < count) {
    while (tokenEnd[first] <= previousEnd) first++;
    const limit = start + targetSize;
    if (tokenStart[first] >= limit) {
      // Unreachable by construction of the start positions; skipping ahead keeps progress certain.
      start = tokenStart[first];
      continue;
    }
    const k = selectBreak(layout, first, start, limit, targetSize);
    if (k >= 0) {
      push(start, tokenEnd[k]);
      if (k === count - 1) break;
      start = startAfterBreak(layout, k, start, targetSize, overlap);
      previousEnd = tokenEnd[k];
    } else {
      // No token ends within reach, so the one at `first` is longer than targetSize.
      if (oversized !== first) {
        oversized = first;
        oversizedBounds = graphemeBoundaries(text, tokenStart[first], tokenEnd[first]);
      }
      const end = hardSplitPoint(text, oversizedBounds, Math.max(start, previousEnd), limit);
      push(start, end);
      start = startAfterHardSplit(oversizedBounds, end, start, overlap);
      previousEnd = end;
    }
  }
  return chunks;
}
