import { EmbeddingRejectedError } from './embedding-errors';
import { l2Normalised } from './vector';

/** A provider's vector for text `index`, checked (its length, finite numbers, not zero) and L2-normalised. */
export function checkedEmbedding(embedderId: string, dimensions: number, embedding: unknown, index: number): number[] {
  if (!Array.isArray(embedding) || embedding.length !== dimensions) {
    const got = Array.isArray(embedding) ? `${embedding.length} dimensions` : typeof embedding;
    throw new EmbeddingRejectedError(
      `${embedderId} returned ${got} for text ${index}, expected ${dimensions} (EMBEDDING_DIMENSIONS); the model may not support that many dimensions`,
    );
  }
  if (!embedding.every((value) => typeof value === 'number' && Number.isFinite(value))) {
    throw new EmbeddingRejectedError(`${embedderId} returned a vector with non-numeric values for text ${index}`);
  }
  const unit = l2Normalised(embedding as number[]);
  if (!unit) throw new EmbeddingRejectedError(`${embedderId} returned a zero vector for text ${index}`);
  return unit;
}
