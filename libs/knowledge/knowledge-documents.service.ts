import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { ApiError, ErrorCode, WORKFLOW_TYPES, knowledgeIngestWorkflowId, type DocumentStatus } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import {
  KnowledgeDocument,
  KnowledgeDocumentRepository,
  type EmbeddingProgress,
  type NewKnowledgeDocument,
  type Page,
  type PageRequest,
} from '@pylon/db';
import { createOnce, fingerprint } from '@pylon/idempotency';
import { LimitsService } from '@pylon/limits';
import { WorkflowStarter } from '@pylon/temporal';
import { DocumentFileStore } from './document-file-store';
import { toDocumentView, type KnowledgeDocumentView } from './document-view';

/** What a new document is asked for. */
export interface NewDocumentRequest {
  title: string;
  content: string;
  metadata?: Record<string, unknown>;
}

/** A document as accepted, before it has an id: from text, or from an uploaded file (its text still to extract). */
export type DocumentDraft = Omit<NewKnowledgeDocument, 'id' | 'orgId' | 'idempotencyKey' | 'requestHash' | 'createdAt'>;

const MAX_METADATA_BYTES = 16 * 1024;

/**
 * Documents go in as `processing` (refused only when the organisation's backlog of processing documents is
 * full) and workflow `kb-ingest:<doc_id>` makes them searchable, dispatched fairly by organisation.
 */
@Injectable()
export class KnowledgeDocumentsService {
  private readonly logger = new Logger(KnowledgeDocumentsService.name);

  constructor(
    private readonly documents: KnowledgeDocumentRepository,
    private readonly workflows: WorkflowStarter,
    private readonly config: PylonConfig,
    private readonly limits: LimitsService,
    private readonly files: DocumentFileStore,
  ) {}

  async create(orgId: string, request: NewDocumentRequest, idempotencyKey: string | null): Promise<KnowledgeDocument> {
    if (request.content.length > this.config.kbMaxDocumentChars) {
      throw new ApiError(ErrorCode.PayloadTooLarge, `content is longer than ${this.config.kbMaxDocumentChars} characters`);
    }
    const metadata = checkMetadata(request.metadata);
    const requestHash = fingerprint({ org_id: orgId, title: request.title, content: request.content, metadata: JSON.stringify(metadata) });
    return this.accept(orgId, { title: request.title, content: request.content, metadata }, requestHash, idempotencyKey);
  }

  /**
   * The one way a document comes in: inserted as processing (once per Idempotency-Key and `requestHash`),
   * admitted to the organisation's backlog, and its ingestion workflow started; if that cannot start, the
   * document (and its file) is removed again and the caller told.
   */
  async accept(orgId: string, draft: DocumentDraft, requestHash: string, idempotencyKey: string | null): Promise<KnowledgeDocument> {
    return createOnce<KnowledgeDocument>(idempotencyKey, requestHash, {
      findByKey: (key) => this.documents.findByIdempotencyKey(orgId, key),
      admit: () => this.limits.admitToBacklog(orgId, 'documents', (upTo) => this.documents.countProcessing(orgId, upTo)),
      insert: async () => {
        const docId = randomUUID();
        const fields = { ...draft, id: docId, orgId, idempotencyKey, requestHash, createdAt: new Date() };
        return (await this.documents.insertProcessing(fields)) ? this.documents.findById(orgId, docId) : null;
      },
      work: {
        awaitsStart: (earlier) => earlier.status === 'processing',
        start: (document) => this.startIngestion(orgId, document.id, document.fileKey !== null),
        undo: async (document, error) => {
          this.logger.error({ err: error }, `could not start ingestion of document ${document.id}; removing it`);
          await this.delete(orgId, document.id);
          return new ApiError(ErrorCode.OrchestratorUnavailable, 'the workflow engine is unavailable; nothing was stored');
        },
      },
    });
  }

  async get(orgId: string, docId: string): Promise<KnowledgeDocumentView> {
    const document = await this.documents.findById(orgId, docId);
    if (!document) throw ApiError.notFound('no such document');
    return (await this.views(orgId, [document]))[0]!;
  }

  /** The organisation's documents, newest first, optionally of one status. */
  async list(orgId: string, status: DocumentStatus | undefined, page: PageRequest): Promise<Page<KnowledgeDocumentView>> {
    const found = await this.documents.list(orgId, status, page);
    return { items: await this.views(orgId, found.items), nextCursor: found.nextCursor };
  }

  /** As the API returns them: a processing document with its embedding progress (one query for all of them). */
  private async views(orgId: string, documents: Array<Omit<KnowledgeDocument, 'content'>>): Promise<KnowledgeDocumentView[]> {
    const processing = documents.filter((document) => document.status === 'processing').map((document) => document.id);
    const progress = processing.length > 0 ? await this.documents.embeddingProgress(orgId, processing) : new Map<string, EmbeddingProgress>();
    return documents.map((document) => toDocumentView(document, progress.get(document.id) ?? null));
  }

  /** Deletes the document, its chunks at once, and its original file. */
  async delete(orgId: string, docId: string): Promise<void> {
    const deleted = await this.documents.delete(orgId, docId);
    if (!deleted) throw ApiError.notFound('no such document');
    if (deleted.fileKey) await this.files.remove(deleted.fileKey);
  }

  private async startIngestion(orgId: string, docId: string, fromFile: boolean): Promise<void> {
    return this.workflows.start({
      workflowType: WORKFLOW_TYPES.knowledgeIngest,
      workflowId: knowledgeIngestWorkflowId(docId),
      args: [fromFile ? { docId, orgId, fromFile } : { docId, orgId }],
      orgId,
      fairnessWeight: await this.limits.dispatchWeight(orgId),
      resourceId: docId,
      summary: `Knowledge ingestion of ${docId}`,
    });
  }
}

/** Metadata as stored: an object (empty when none was sent), at most MAX_METADATA_BYTES as JSON. */
export function checkMetadata(metadata: Record<string, unknown> | undefined): Record<string, unknown> {
  const checked = metadata ?? {};
  if (Buffer.byteLength(JSON.stringify(checked)) > MAX_METADATA_BYTES) {
    throw ApiError.invalidRequest(`metadata is larger than ${MAX_METADATA_BYTES} bytes`);
  }
  return checked;
}
