export { chunkText } from './chunk-text';
export type { ChunkingOptions, TextChunk } from './types';
