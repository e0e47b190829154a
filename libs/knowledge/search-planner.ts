import type { SearchPlan } from './repositories/knowledge-search.sql';

export interface SearchShape {
  /** Chunks of the organisation searched. */
  orgChunks: number;
  k: number;
  /** Organisations up to this many chunks are searched exactly. */
  exactMaxChunks: number;
  /** Whether the organisation's own HNSW index (built in the background once it grew large) is ready. */
  ownIndexReady: boolean;
  iterativeScanAvailable: boolean;
}

/** HNSW candidates per search: at least this many, and EF_PER_MATCH per match asked for (bench/README.md, knowledge-search). */
const MIN_EF_SEARCH = 100;
const EF_PER_MATCH = 8;
const MAX_EF_SEARCH = 1000;

/**
 * A small organisation is scored exactly: a few thousand distance computations are fast and always
 * right. A large one is searched through its own HNSW index (a partial index of only its chunks, so no
 * other organisation's rows crowd out its own) once that index is ready; until then, exactly, which is
 * slower but never wrong: a search during an index build is a correct search.
 */
export function planSearch(shape: SearchShape): SearchPlan {
  if (shape.orgChunks <= shape.exactMaxChunks || !shape.ownIndexReady) return { exact: true, efSearch: 0, iterativeScan: false };
  const efSearch = Math.min(MAX_EF_SEARCH, Math.max(MIN_EF_SEARCH, EF_PER_MATCH * shape.k));
  return { exact: false, efSearch, iterativeScan: shape.iterativeScanAvailable };
}

/** pgvector's iterative index scans arrived in 0.8.0. */
export function supportsIterativeScan(version: string | undefined): boolean {
  const [major = 0, minor = 0] = (version ?? '0.0').split('.').map(Number);
  return major > 0 || minor >= 8;
}
