/**
 * The vector for a text with nothing to embed (no letters or digits): a fixed unit vector with
 * alternating signs, +1/√d, −1/√d, … It is not the zero vector because pgvector's cosine distance
 * with a zero vector is NaN, which breaks ORDER BY and score thresholds. Its dot product with a
 * real text's vector is small (about ±1/√d) and two empty texts are identical, as they should be.
 */
export function noContentVector(dimensions: number): number[] {
  const value = 1 / Math.sqrt(dimensions);
  return Array.from({ length: dimensions }, (_, i) => (i % 2 === 0 ? value : -value));
}

/** The Euclidean norm. */
export function l2Norm(vector: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  return Math.sqrt(sum);
}

/** `vector` scaled to unit length as a plain array; `null` when its norm is zero or not finite. */
export function l2Normalised(vector: ArrayLike<number>): number[] | null {
  const norm = l2Norm(vector);
  if (!(norm > 0) || !Number.isFinite(norm)) return null;
  const out = new Array<number>(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = vector[i]! / norm;
  return out;
}
