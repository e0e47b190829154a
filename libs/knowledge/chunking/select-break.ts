import { Break, type TextLayout } from './boundaries';

/** A heading starts a new chunk once the current one holds this share of targetSize. */
const HEADING_FILL = 0.25;

/**
 * Shares of targetSize a break must fill, tried in turn, before rank decides among the breaks
 * that do: a paragraph break at 60% beats a sentence end at 95%, one at 40% does not, and a chunk
 * under a quarter full is cut only when no break fills more.
 */
const FILL_TIERS = [0.5, 0.25, 0];

const BY_RANK = [Break.End, Break.Heading, Break.Paragraph, Break.Sentence, Break.Line, Break.Space, Break.Token];

/**
 * Chooses the token after which the chunk starting at `start` ends, among the tokens from `first`
 * on that end within `limit`; -1 when there is none (the token at `first` must then be hard-split).
 */
export function selectBreak(layout: TextLayout, first: number, start: number, limit: number, targetSize: number): number {
  const { count, tokenEnd, breakAfter } = layout;
  const headingEnd = start + Math.ceil(targetSize * HEADING_FILL);
  const furthest = new Int32Array(Break.End + 1).fill(-1);
  let any = false;
  for (let k = first; k < count && tokenEnd[k] <= limit; k++) {
    const rank = breakAfter[k];
    if (rank === Break.Heading && tokenEnd[k] >= headingEnd) return k;
    furthest[rank] = k;
    any = true;
  }
  if (!any) return -1;
  for (const tier of FILL_TIERS) {
    const minEnd = start + Math.ceil(targetSize * tier);
    for (const rank of BY_RANK) {
      const k = furthest[rank];
      if (k >= 0 && (tokenEnd[k] >= minEnd || rank === Break.End)) return k;
    }
  }
  return -1;
}
