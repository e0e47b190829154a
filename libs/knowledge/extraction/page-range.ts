/**
 * The 1-based pages that the text in [start, end) covers, given where each page starts
 * (`pageStarts[i]` is the offset of page i + 1, ascending); null when there are no pages or the
 * range is empty. A page that starts exactly at `end` is not covered.
 */
export function pageRange(start: number, end: number, pageStarts: readonly number[] | null): { pageStart: number; pageEnd: number } | null {
  if (!pageStarts || pageStarts.length === 0 || end <= start) return null;
  return { pageStart: pageAt(start, pageStarts), pageEnd: pageAt(end - 1, pageStarts) };
}

/** The 1-based page holding the character at `offset`: the last page starting at or before it. */
function pageAt(offset: number, pageStarts: readonly number[]): number {
  let low = 0;
  let high = pageStarts.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (pageStarts[middle] <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}
