import { type ChunkingOptions } from './types';

/** A surrogate pair must fit in a chunk, hence the minimum of 2. */
export const MIN_TARGET_SIZE = 2;

export function validateOptions(options: ChunkingOptions): ChunkingOptions {
  const { targetSize, overlap } = options;
  if (!Number.isInteger(targetSize) || targetSize < MIN_TARGET_SIZE) {
    throw new RangeError(`targetSize must be an integer ≥ ${MIN_TARGET_SIZE}, got ${targetSize}`);
  }
  if (!Number.isInteger(overlap) || overlap < 0 || overlap * 2 >= targetSize) {
    throw new RangeError(`overlap must be an integer with 0 ≤ overlap < targetSize / 2, got ${overlap} for targetSize ${targetSize}`);
  }
  return { targetSize, overlap };
}
