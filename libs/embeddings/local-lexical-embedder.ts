import type { Embedder } from './embedder';
import { fmix32 } from './hash';
import { lexicalFeatures } from './lexical-features';
import { l2Normalised, noContentVector } from './vector';

/**
 * The offline embedder: deterministic, no network, and plain about what it is. It is not a
 * language model: it hashes words, word pairs and (for CJK and similar scripts) character pairs
 * into `dimensions` buckets (the hashing trick), so texts sharing vocabulary score close and
 * paraphrases with other words do not.
 *
 * Each feature's 32-bit hash picks its dimension (low 31 bits modulo `dimensions`) and its sign
 * (top bit), which keeps collisions unbiased; its weight is 1 + ln(count); the vector is
 * L2-normalised. A text with no letters or digits gets `noContentVector` (see there), never zero.
 */
export class LocalLexicalEmbedder implements Embedder {
  readonly id = 'local/lexical-hash-v1';

  constructor(readonly dimensions: number) {
    if (!Number.isInteger(dimensions) || dimensions < 1) {
      throw new RangeError(`embedding dimensions must be a positive integer, got ${dimensions}`);
    }
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    signal?.throwIfAborted();
    return texts.map((text) => this.embedOne(text));
  }

  /** The vector of one text, synchronously. */
  embedOne(text: string): number[] {
    const vector = new Float64Array(this.dimensions);
    for (const [feature, count] of lexicalFeatures(text)) {
      const hash = fmix32(feature);
      const weight = 1 + Math.log(count);
      vector[(hash & 0x7fffffff) % this.dimensions] += hash >>> 31 ? -weight : weight;
    }
    // All features may cancel out in a tiny vector space; that text is treated as having no content.
    return l2Normalised(vector) ?? noContentVector(this.dimensions);
  }
}
