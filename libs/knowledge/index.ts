export { chunkText, type ChunkingOptions, type TextChunk } from './chunking';
export { toDocumentView, documentEvent, type KnowledgeDocumentView } from './document-view';
export { planSearch, supportsIterativeScan, type SearchShape } from './search-planner';
export { KnowledgeSearchService, type KnowledgeQuery } from './knowledge-search.service';
export { parseSearchFilter, FILTER_LIMITS } from './search-filter';
export { KnowledgeModule } from './knowledge.module';
export { KnowledgeIngestionService } from './knowledge-ingestion.service';
export { KnowledgeDocumentsService, type NewDocumentRequest, type DocumentRevisionRequest } from './knowledge-documents.service';
export { KnowledgeVectorIndexService, type VectorSearchState } from './vector-index.service';
