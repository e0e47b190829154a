import { DOCUMENT_FILE_MEDIA_TYPES, EVENT_TYPES, type DocumentFileType, type DocumentStatus } from '@pylon/contracts';
import type { EmbeddingProgress } from './repositories/knowledge-document.repository';
import type { EventFactory, KnowledgeDocument } from '@pylon/db';

/** A knowledge document as the API returns it (and as its events carry it). */
export interface KnowledgeDocumentView {
  doc_id: string;
  org_id: string;
  knowledge_base_id: string;
  title: string;
  /** Of the latest accepted revision. */
  status: DocumentStatus;
  /** Why the latest accepted revision failed. */
  failure_reason: string | null;
  /** The ready revision's chunks, which search serves. */
  chunk_count: number;
  /** The latest accepted revision: 1 at create, n+1 after each replacement. */
  revision: number;
  /** The revision search answers from; null until one is ready. */
  ready_revision: number | null;
  /** While a document too large for one round of embedding batches is processing: its chunks embedded so far, of all. */
  progress: { chunks_embedded: number; chunks_total: number } | null;
  metadata: Record<string, unknown>;
  /** The uploaded original (downloadable at …/documents/{doc_id}/file), or null for a document made from text. */
  file: DocumentFileView | null;
  created_at: string;
  updated_at: string;
}

export interface DocumentFileView {
  name: string | null;
  type: DocumentFileType;
  media_type: string;
  size_bytes: number;
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
    revision: document.revision,
    ready_revision: document.readyRevision,
    progress: progress && { chunks_embedded: progress.embedded, chunks_total: progress.total },
    metadata: document.metadata,
    file: document.fileType && {
      name: document.fileName,
      type: document.fileType,
      media_type: DOCUMENT_FILE_MEDIA_TYPES[document.fileType],
      size_bytes: document.fileSize ?? 0,
    },
    created_at: document.createdAt.toISOString(),
    updated_at: document.updatedAt.toISOString(),
  };
}

/** `knowledge_document.ready` or `.failed`, carrying the document as the API returns it. */
export const documentEvent: EventFactory<KnowledgeDocument> = (document) => ({
  type: document.status === 'ready' ? EVENT_TYPES.knowledgeDocumentReady : EVENT_TYPES.knowledgeDocumentFailed,
  data: { ...toDocumentView(document) },
});
