import { isSurrogatePairAt } from './chars';
import { forEachSegment, graphemeSegmenter, isGraphemeCut } from './segments';

/** Grapheme cluster boundaries of text[from, to), both ends included. */
export function graphemeBoundaries(text: string, from: number, to: number): number[] {
  const bounds = [from];
  forEachSegment(graphemeSegmenter, text, from, to, isGraphemeCut, (_start, end) => bounds.push(end));
  return bounds;
}

/** Index of the last element ≤ value in an ascending array, or -1. */
export function lastAtMost(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * Where to cut a token too long for any chunk: the last grapheme boundary in (after, limit].
 * Only a single grapheme cluster longer than that room (pathological stacks of combining marks)
 * is cut inside, and then still never between the two halves of a surrogate pair.
 */
export function hardSplitPoint(text: string, bounds: readonly number[], after: number, limit: number): number {
  const i = lastAtMost(bounds, limit);
  if (i >= 0 && bounds[i] > after) return bounds[i];
  return isSurrogatePairAt(text, limit) ? limit - 1 : limit;
}
