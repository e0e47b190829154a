import { Break, type TextLayout } from './boundaries';
import { lastAtMost } from './graphemes';

/**
 * Where the chunk after a break at token `k` starts. Its start lies in [end − overlap, end) when a
 * token starts there, preferring sentence starts over line starts over plain word starts, and
 * the earliest of equals. Two limits keep it from reaching back that far:
 * - no overlap across headings and paragraph breaks: the next chunk then opens a fresh section or
 *   paragraph, and a tail of the previous one would only blur that;
 * - the next chunk must still fit the whole next token (or half a chunk of one too long to fit
 *   anyway), or it would have to split a word that is not oversized.
 */
export function startAfterBreak(layout: TextLayout, k: number, chunkStart: number, targetSize: number, overlap: number): number {
  const { tokenStart, tokenEnd, breakAfter } = layout;
  const next = tokenStart[k + 1];
  if (overlap === 0 || breakAfter[k] >= Break.Paragraph) return next;

  const nextEnd = tokenEnd[k + 1];
  const mustReach = nextEnd - next <= targetSize ? nextEnd : next + Math.ceil(targetSize / 2);
  const from = Math.max(tokenEnd[k] - overlap, chunkStart + 1, mustReach - targetSize);
  let best = next;
  let bestRank = -1;
  for (let j = k; j > 0 && tokenStart[j] >= from; j--) {
    const rank = breakAfter[j - 1];
    if (rank >= bestRank) {
      best = tokenStart[j];
      bestRank = rank;
    }
    if (rank >= Break.Paragraph) break;
  }
  return best;
}

/** Where the chunk after a hard split at `end` of an oversized token starts: overlap by whole grapheme clusters. */
export function startAfterHardSplit(bounds: readonly number[], end: number, chunkStart: number, overlap: number): number {
  const from = Math.max(end - overlap, chunkStart + 1, bounds[0]);
  const i = lastAtMost(bounds, from - 1) + 1;
  return i < bounds.length ? Math.min(bounds[i], end) : end;
}
