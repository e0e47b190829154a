export { chunkText, type ChunkingOptions, type TextChunk } from './chunking';
export { toDocumentView, documentEvent, type KnowledgeDocumentView } from './document-view';
export { planSearch, supportsIterativeScan, type SearchShape } from './search-planner';
export { KnowledgeSearchService } from './knowledge-search.service';
export { KnowledgeModule } from './knowledge.module';
