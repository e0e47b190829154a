export { chunkText, type ChunkingOptions, type TextChunk } from './chunking';
export { toDocumentView, documentEvent, type KnowledgeDocumentView } from './document-view';
export { planSearch, supportsIterativeScan, type SearchShape } from './search-planner';
export { KnowledgeSearchService, type KnowledgeQuery } from './knowledge-search.service';
export { parseSearchFilter, FILTER_LIMITS } from './search-filter';
export { KnowledgeModule } from './knowledge.module';
export { KnowledgeIngestionService } from './knowledge-ingestion.service';
export { KnowledgeDocumentsService, type NewDocumentRequest, type DocumentRevisionRequest } from './knowledge-documents.service';
export { KnowledgeVectorIndexService, type VectorSearchState } from './vector-index.service';
export { KnowledgeBasesService, type KnowledgeBaseView, type KnowledgeBaseUpdate, type NewKnowledgeBaseRequest } from './knowledge-bases.service';
export { KnowledgeExtractionService } from './knowledge-extraction.service';
export { KnowledgeFilesService, type IncomingFile, type ReceivedFile, type FileDocumentFields } from './knowledge-files.service';
export { DocumentFileStore } from './document-file-store';
export { ExtractionFailure, DOCUMENT_FILE_MEDIA_TYPES, sniffing } from './extraction';
export { KnowledgeBatchesService, CANCELLED_WITH_BATCH, type KnowledgeBatchView } from './knowledge-batches.service';
export {
  KnowledgeVectorIndexRepository,
  vectorIndexDdl,
  vectorIndexName,
  type VectorIndexRecord,
  type VectorIndexStatus,
} from './repositories/knowledge-vector-index.repository';
export { KnowledgeBaseRepository, type KnowledgeBaseChanges } from './repositories/knowledge-base.repository';
export {
  KnowledgeDocumentRepository,
  type NewKnowledgeDocument,
  type EmbeddedChunk,
  type EmbeddingProgress,
  type RevisionFields,
  type ReplacementRecord,
  type RevisionAcceptance,
  type PublishedChunks,
} from './repositories/knowledge-document.repository';
export { KnowledgeBatchRepository, type BatchDocumentRow, type NewKnowledgeBatch } from './repositories/knowledge-batch.repository';
export { KnowledgeChunkRepository, type ChunkMatch, type ChunkQueryMatch, type DraftChunk } from './repositories/knowledge-chunk.repository';
export {
  knowledgeSearchStatement,
  RRF_K,
  type ChunkQuery,
  type IndexTuning,
  type SearchPlan,
  type SearchStatement,
} from './repositories/knowledge-search.sql';
