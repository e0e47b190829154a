export interface ChunkingOptions {
  /** Maximum chunk length in UTF-16 code units. */
  targetSize: number;
  /** Maximum number of characters shared by consecutive chunks; 0 ≤ overlap < targetSize / 2. */
  overlap: number;
}

export interface TextChunk {
  index: number;
  /** Always `text.slice(start, end)`. */
  content: string;
  start: number;
  end: number;
}
