/**
 * Turns texts into vectors for similarity search. Every vector has `dimensions` entries and is
 * L2-normalised, so cosine similarity is the dot product; no vector is ever the zero vector.
 */
export interface Embedder {
  /** What produced the vectors, e.g. `local/lexical-hash-v1` or `openai/text-embedding-3-small`. */
  readonly id: string;
  readonly dimensions: number;
  /** One vector per text, in the order given. */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}
