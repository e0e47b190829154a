import type { Embedder } from './embedder';
import { EmbeddingUnavailableError } from './embedding-errors';

/** Stands in for an embedder that is not configured: the app starts, and only embedding fails, saying why. */
export class UnavailableEmbedder implements Embedder {
  constructor(
    readonly id: string,
    readonly dimensions: number,
    readonly reason: string,
  ) {}

  async embed(): Promise<number[][]> {
    throw new EmbeddingUnavailableError(this.reason);
  }
}
