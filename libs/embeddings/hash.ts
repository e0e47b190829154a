/**
 * Stable 32-bit hashes for feature hashing. They define which dimension each feature lands in,
 * so changing anything here changes every local vector: bump LocalLexicalEmbedder's id version.
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over the UTF-16 code units of `text[start, end)`, unsigned. */
export function fnv1a(text: string, start = 0, end = text.length): number {
  let hash = FNV_OFFSET;
  for (let i = start; i < end; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}

/** One more FNV-1a step, for hashing as a token is scanned. */
export function fnv1aStep(hash: number, codeUnit: number): number {
  return Math.imul(hash ^ codeUnit, FNV_PRIME);
}

export const FNV1A_START = FNV_OFFSET;

/** MurmurHash3's finaliser: spreads every input bit over the output, unsigned. */
export function fmix32(value: number): number {
  let h = value | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** An ordered pair of hashes (`a b` differs from `b a`), kept apart from single-token hashes by a salt. */
export function pairHash(first: number, second: number): number {
  return fmix32(Math.imul(first, 0x9e3779b1) ^ second ^ 0x2545f491);
}
