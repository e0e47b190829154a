import type { SearchPlan } from '@pylon/db';

export interface SearchShape {
  /** Chunks of the organisation searched. */
  orgChunks: number;
  /** Chunks of every organisation in the table. */
  totalChunks: number;
  k: number;
  /** Organisations up to this many chunks are searched exactly. */
  exactMaxChunks: number;
  iterativeScanAvailable: boolean;
}

/** Measured (bench/knowledge-search): below ~100 candidates the filtered index loses most of a large org's top-k. */
const MIN_EF_SEARCH = 100;
const MAX_EF_SEARCH = 1000;

/**
 * A small organisation is scored exactly (a few thousand distance computations beat an index that
 * would mostly return other organisations' rows). A large one uses HNSW with enough candidates that,
 * after the tenant filter, about four times k are expected to be its own; pgvector ≥ 0.8 keeps scanning
 * (iterative scan) when that still falls short, and the service searches exactly if a result comes back short.
 */
export function planSearch(shape: SearchShape): SearchPlan {
  if (shape.orgChunks <= shape.exactMaxChunks) return { exact: true, efSearch: 0, iterativeScan: false };
  const share = shape.orgChunks / Math.max(shape.totalChunks, shape.orgChunks, 1);
  const efSearch = Math.min(MAX_EF_SEARCH, Math.max(MIN_EF_SEARCH, Math.ceil((4 * shape.k) / share)));
  return { exact: false, efSearch, iterativeScan: shape.iterativeScanAvailable };
}

/** pgvector's iterative index scans arrived in 0.8.0. */
export function supportsIterativeScan(version: string | undefined): boolean {
  const [major = 0, minor = 0] = (version ?? '0.0').split('.').map(Number);
  return major > 0 || minor >= 8;
}
