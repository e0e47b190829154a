import { EVENT_TYPES, type DocumentStatus } from '@pylon/contracts';
import type { DocumentEventFactory, EmbeddingProgress, KnowledgeDocument } from '@pylon/db';

/** A knowledge document as the API returns it (and as its events carry it). */
export interface KnowledgeDocumentView {
  doc_id: string;
  org_id: string;
  knowledge_base_id: string;
  title: string;
  status: DocumentStatus;
  failure_reason: string | null;
  chunk_count: number;
  /** While a document too large for one round of embedding batches is processing: its chunks embedded so far, of all. */
  progress: { chunks_embedded: number; chunks_total: number } | null;
  metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export function toDocumentView(document: Omit<KnowledgeDocument, 'content'>, progress: EmbeddingProgress | null = null): KnowledgeDocumentView {
  return {
    doc_id: document.id,
    org_id: document.orgId,
    knowledge_base_id: document.knowledgeBaseId,
    title: document.title,
    status: document.status,
    failure_reason: document.failureReason,
    chunk_count: document.chunkCount,
    progress: progress && { chunks_embedded: progress.embedded, chunks_total: progress.total },
    metadata: document.metadata,
    created_at: document.createdAt.toISOString(),
    updated_at: document.updatedAt.toISOString(),
  };
}

/** `knowledge_document.ready` or `.failed`, carrying the document as the API returns it. */
export const documentEvent: DocumentEventFactory = (document) => ({
  type: document.status === 'ready' ? EVENT_TYPES.knowledgeDocumentReady : EVENT_TYPES.knowledgeDocumentFailed,
  data: { ...toDocumentView(document) },
});
