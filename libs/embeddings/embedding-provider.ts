import type { Embedder } from './embedder';

/**
 * The injection token for the configured `Embedder` (an interface cannot be one):
 * `constructor(private readonly embedder: EmbeddingProvider)`.
 */
export abstract class EmbeddingProvider implements Embedder {
  abstract readonly id: string;
  abstract readonly dimensions: number;
  abstract embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}
