/**
 * The synthetic knowledge base of the knowledge-search benchmark, fully determined by a seed:
 * - a vocabulary of pseudo-words (syllables) drawn with Zipf-like frequencies (the top ranks act as
 *   stop words), plus topics (small sets of mid- and low-frequency words);
 * - organisations of skewed sizes: four "classes" holding ~0.1%, ~1%, ~10% and ~50% of the chunks,
 *   the rest spread over the others by a Zipf law;
 * - documents made of paragraphs of 620–915 characters separated by blank lines. With
 *   KB_CHUNK_SIZE=1000 the chunker ends each chunk at a paragraph break (two paragraphs never fit
 *   in one chunk, one always does) and never overlaps across paragraphs, so a document of n
 *   paragraphs yields exactly n chunks;
 * - queries: a few less common words of one paragraph of one of the organisation's documents.
 */

/** mulberry32: a small, fast, seedable PRNG returning [0, 1). */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed from a few integers (murmur-style mixing), so every document has its own stream. */
export function mixSeed(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h = Math.imul(h ^ (part >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function intBetween(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export const CHUNK_SIZE = 1000;
export const CHUNK_OVERLAP = 0;
const PARAGRAPH_MIN_CHARS = 620;
const PARAGRAPH_MAX_TARGET = 900;
/** The share of words taken from the document's topics rather than from the background law. */
const TOPIC_WORD_SHARE = 0.25;
/** Query words are taken from ranks at or beyond this (the top ranks are stop words). */
const QUERY_MIN_RANK = 60;

export interface CorpusOptions {
  seed: number;
  vocabularySize: number;
  topics: number;
  wordsPerTopic: number;
  zipfExponent: number;
}

export const DEFAULT_CORPUS: CorpusOptions = { seed: 42, vocabularySize: 5000, topics: 300, wordsPerTopic: 12, zipfExponent: 1.0 };

export class Corpus {
  /** By rank: words[0] is the most frequent. */
  readonly words: string[];
  readonly rankOf = new Map<string, number>();
  private readonly cdf: Float64Array;
  readonly topics: number[][];

  constructor(readonly options: CorpusOptions = DEFAULT_CORPUS) {
    const random = prng(mixSeed(options.seed, 1));
    const onsets = [
      'b',
      'c',
      'd',
      'f',
      'g',
      'h',
      'j',
      'k',
      'l',
      'm',
      'n',
      'p',
      'r',
      's',
      't',
      'v',
      'w',
      'z',
      'br',
      'st',
      'tr',
      'ch',
      'sh',
      'pl',
      'gr',
      'kr',
      'fl',
      'dr',
    ];
    const nuclei = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou', 'y'];
    const codas = ['', '', '', 'n', 'r', 's', 'l', 'm', 'x', 'nd', 'rk', 'st'];
    const seen = new Set<string>();
    this.words = [];
    while (this.words.length < options.vocabularySize) {
      const rank = this.words.length;
      const syllables = rank < 40 ? intBetween(random, 1, 2) : rank < 600 ? intBetween(random, 2, 3) : intBetween(random, 2, 4);
      let word = '';
      for (let s = 0; s < syllables; s++) word += pick(random, onsets) + pick(random, nuclei);
      word += pick(random, codas);
      if (word.length > 14 || seen.has(word)) continue;
      seen.add(word);
      this.rankOf.set(word, rank);
      this.words.push(word);
    }
    this.cdf = new Float64Array(options.vocabularySize);
    let sum = 0;
    for (let rank = 0; rank < options.vocabularySize; rank++) {
      sum += 1 / (rank + 1) ** options.zipfExponent;
      this.cdf[rank] = sum;
    }
    for (let rank = 0; rank < options.vocabularySize; rank++) this.cdf[rank] /= sum;
    // Topic words: mid and low frequencies, where words carry meaning.
    this.topics = Array.from({ length: options.topics }, () =>
      Array.from({ length: options.wordsPerTopic }, () => intBetween(random, 200, options.vocabularySize - 1)),
    );
  }

  /** A word rank drawn from the Zipf law. */
  private backgroundRank(random: () => number): number {
    const u = random();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** A paragraph of PARAGRAPH_MIN_CHARS..~915 characters: sentences of background and topic words. */
  private paragraph(random: () => number, primary: number[], secondary: number[]): string {
    const target = intBetween(random, PARAGRAPH_MIN_CHARS, PARAGRAPH_MAX_TARGET);
    let text = '';
    let sentenceLeft = 0;
    while (text.length < target) {
      let rank: number;
      if (random() < TOPIC_WORD_SHARE) rank = pick(random, random() < 0.75 ? primary : secondary);
      else rank = this.backgroundRank(random);
      let word = this.words[rank]!;
      if (sentenceLeft === 0) {
        if (text) text += '. ';
        word = word[0]!.toUpperCase() + word.slice(1);
        sentenceLeft = intBetween(random, 6, 16);
      } else {
        text += random() < 0.08 ? ', ' : ' ';
      }
      text += word;
      sentenceLeft--;
    }
    return `${text}.`;
  }

  /** The topics of an organisation: a handful, so its documents resemble each other. */
  orgTopics(orgIndex: number): number[] {
    const random = prng(mixSeed(this.options.seed, 2, orgIndex));
    return Array.from({ length: 4 }, () => Math.floor(random() * this.topics.length));
  }

  /** Document `docIndex` of organisation `orgIndex`, with exactly `paragraphs` paragraphs. */
  document(orgIndex: number, docIndex: number, paragraphs: number): { title: string; content: string; paragraphs: string[] } {
    const random = prng(mixSeed(this.options.seed, 3, orgIndex, docIndex));
    const orgTopics = this.orgTopics(orgIndex);
    const primaryTopic = pick(random, orgTopics);
    const secondaryTopic = Math.floor(random() * this.topics.length);
    const primary = this.topics[primaryTopic]!;
    const secondary = this.topics[secondaryTopic]!;
    const parts = Array.from({ length: paragraphs }, () => this.paragraph(random, primary, secondary));
    const titleWords = primary.slice(0, 3).map((rank) => this.words[rank]);
    return { title: `Org ${orgIndex} document ${docIndex}: ${titleWords.join(' ')}`, content: parts.join('\n\n'), paragraphs: parts };
  }

  /** A query: 3–6 distinct less common words of one paragraph, in their order of appearance. */
  query(random: () => number, paragraph: string): string {
    const tokens = paragraph.toLowerCase().match(/[a-z]+/g) ?? [];
    const candidates = [...new Set(tokens.filter((token) => (this.rankOf.get(token) ?? 0) >= QUERY_MIN_RANK))];
    const wanted = Math.min(candidates.length, intBetween(random, 3, 6));
    const chosen = new Set<string>();
    while (chosen.size < wanted) chosen.add(pick(random, candidates));
    const words = candidates.filter((word) => chosen.has(word));
    return words.length ? words.join(' ') : tokens.slice(0, 4).join(' ');
  }
}

export type SizeClass = '0.1%' | '1%' | '10%' | '50%';
export const SIZE_CLASSES: Array<{ name: SizeClass; share: number }> = [
  { name: '0.1%', share: 0.001 },
  { name: '1%', share: 0.01 },
  { name: '10%', share: 0.1 },
  { name: '50%', share: 0.5 },
];

export interface OrgPlan {
  index: number;
  /** One of SIZE_CLASSES for the four measured organisations. */
  sizeClass?: SizeClass;
  chunks: number;
  /** Paragraphs (= chunks) of each of its documents. */
  documents: number[];
}

/**
 * Sizes of `orgCount` organisations totalling exactly `totalChunks`: the four class organisations
 * first, then the rest by a Zipf law (exponent 1) over what is left. Each organisation's chunks are
 * split into ceil(chunks / maxChunksPerDocument) documents of near-equal size.
 */
export function planOrganisations(totalChunks: number, orgCount: number, maxChunksPerDocument: number): OrgPlan[] {
  if (orgCount < SIZE_CLASSES.length + 1) throw new Error(`at least ${SIZE_CLASSES.length + 1} organisations are needed`);
  const classSizes = SIZE_CLASSES.map(({ share }) => Math.max(1, Math.round(totalChunks * share)));
  const others = orgCount - SIZE_CLASSES.length;
  const rest = totalChunks - classSizes.reduce((sum, size) => sum + size, 0);
  if (rest < others) throw new Error(`${totalChunks} chunks are too few for ${orgCount} organisations`);
  const weights = Array.from({ length: others }, (_, i) => 1 / (i + 1));
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  // At least one chunk each; the rest by weight, rounding remainders to the largest.
  const otherSizes = weights.map((weight) => 1 + Math.floor(((rest - others) * weight) / weightSum));
  let missing = rest - otherSizes.reduce((sum, size) => sum + size, 0);
  for (let i = 0; missing > 0; i = (i + 1) % others, missing--) otherSizes[i]!++;
  const sizes = [...classSizes, ...otherSizes];
  return sizes.map((chunks, index) => {
    const count = Math.ceil(chunks / maxChunksPerDocument);
    const base = Math.floor(chunks / count);
    const documents = Array.from({ length: count }, (_, i) => base + (i < chunks % count ? 1 : 0));
    return { index, sizeClass: SIZE_CLASSES[index]?.name, chunks, documents };
  });
}
