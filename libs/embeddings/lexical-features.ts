import { FNV1A_START, fnv1a, fnv1aStep, pairHash } from './hash';

/**
 * The features of a text for the local lexical embedder, as feature hash → count:
 * - the text is NFKC-normalised and lower-cased;
 * - tokens are runs of Unicode letters and numbers (combining marks may continue a run, so that
 *   Devanagari, Arabic with vowel marks, etc. are not cut at every mark);
 * - every token is a feature, and so is every pair of adjacent tokens (word bigrams);
 * - scripts written without spaces (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar) have no
 *   words to find, so their runs give each character and each pair of adjacent characters instead.
 * Pure-ASCII texts (the common case) take a scanning path that builds no strings; it gives exactly
 * the features of the general path.
 */
export function lexicalFeatures(text: string): Map<number, number> {
  return asciiFeatures(text) ?? unicodeFeatures(text);
}

/** Exported for tests only: the general path, whatever the text. */
export function unicodeFeatures(text: string): Map<number, number> {
  const counts = new Map<number, number>();
  const normal = text.normalize('NFKC').toLowerCase();
  const hasNoSpaceScript = NO_SPACE_CHAR.test(normal);
  let previous: number | undefined;
  for (const [token] of normal.matchAll(TOKEN)) {
    if (!hasNoSpaceScript || !NO_SPACE_CHAR.test(token)) {
      previous = addWord(counts, fnv1a(token), previous);
      continue;
    }
    for (const [segment] of token.matchAll(SEGMENT)) {
      if (NO_SPACE_CHAR.test(segment)) {
        addCharacters(counts, segment);
        previous = undefined;
      } else {
        previous = addWord(counts, fnv1a(segment), previous);
      }
    }
  }
  return counts;
}

const NO_SPACE_CLASS = '\\p{scx=Han}\\p{scx=Hira}\\p{scx=Kana}\\p{scx=Thai}\\p{scx=Laoo}\\p{scx=Khmr}\\p{scx=Mymr}';
const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
const NO_SPACE_CHAR = new RegExp(`[${NO_SPACE_CLASS}]`, 'u');
const SEGMENT = new RegExp(`[${NO_SPACE_CLASS}]+|[^${NO_SPACE_CLASS}]+`, 'gu');

function add(counts: Map<number, number>, feature: number): void {
  counts.set(feature, (counts.get(feature) ?? 0) + 1);
}

function addWord(counts: Map<number, number>, hash: number, previous: number | undefined): number {
  add(counts, hash);
  if (previous !== undefined) add(counts, pairHash(previous, hash));
  return hash;
}

/** Characters and adjacent character pairs, by code point. */
function addCharacters(counts: Map<number, number>, segment: string): void {
  const chars = Array.from(segment);
  for (let i = 0; i < chars.length; i++) {
    add(counts, fnv1a(chars[i]!));
    if (i > 0) add(counts, fnv1a(chars[i - 1]! + chars[i]!));
  }
}

/** The features of a pure-ASCII text without building strings; `null` at the first non-ASCII character. */
function asciiFeatures(text: string): Map<number, number> | null {
  const counts = new Map<number, number>();
  let previous: number | undefined;
  let hash = FNV1A_START;
  let inToken = false;
  for (let i = 0; i <= text.length; i++) {
    let c = i < text.length ? text.charCodeAt(i) : 32;
    if (c >= 128) return null;
    if (c >= 65 && c <= 90) c |= 0x20;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      hash = fnv1aStep(hash, c);
      inToken = true;
    } else if (inToken) {
      previous = addWord(counts, hash >>> 0, previous);
      hash = FNV1A_START;
      inToken = false;
    }
  }
  return counts;
}
