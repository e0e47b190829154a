import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { ApiError, ErrorCode, WORKFLOW_TYPES, knowledgeIngestWorkflowId, type DocumentStatus } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { KnowledgeDocument, KnowledgeDocumentRepository, type EmbeddingProgress, type Page, type PageRequest } from '@pylon/db';
import { createOnce, fingerprint } from '@pylon/idempotency';
import { LimitsService } from '@pylon/limits';
import { WorkflowStarter } from '@pylon/temporal';
import { toDocumentView, type KnowledgeDocumentView } from './document-view';
import { KnowledgeBasesService } from './knowledge-bases.service';

/** What a new document is asked for. */
export interface NewDocumentRequest {
  title: string;
  content: string;
  metadata?: Record<string, unknown>;
  /** The base it goes to; absent: the organisation's default base. */
  knowledge_base_id?: string;
}

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
    private readonly bases: KnowledgeBasesService,
  ) {}

  async create(orgId: string, request: NewDocumentRequest, idempotencyKey: string | null): Promise<KnowledgeDocument> {
    if (request.content.length > this.config.kbMaxDocumentChars) {
      throw new ApiError(ErrorCode.PayloadTooLarge, `content is longer than ${this.config.kbMaxDocumentChars} characters`);
    }
    const metadata = request.metadata ?? {};
    if (Buffer.byteLength(JSON.stringify(metadata)) > MAX_METADATA_BYTES) {
      throw ApiError.invalidRequest(`metadata is larger than ${MAX_METADATA_BYTES} bytes`);
    }
    const requested = request.knowledge_base_id;
    const requestHash = fingerprint({
      org_id: orgId,
      title: request.title,
      content: request.content,
      metadata: JSON.stringify(metadata),
      // Only when named, so that the fingerprint of a request without it is what it was before bases.
      ...(requested === undefined ? {} : { knowledge_base_id: requested }),
    });
    return createOnce<KnowledgeDocument>(idempotencyKey, requestHash, {
      findByKey: (key) => this.documents.findByIdempotencyKey(orgId, key),
      admit: async () => {
        if (requested !== undefined) await this.bases.assertExist(orgId, [requested], 'knowledge_base_id');
        await this.limits.admitToBacklog(orgId, 'documents', (upTo) => this.documents.countProcessing(orgId, upTo));
      },
      insert: async () => {
        const docId = randomUUID();
        const fields = {
          id: docId,
          orgId,
          knowledgeBaseId: await this.bases.baseForDocument(orgId, requested),
          title: request.title,
          content: request.content,
          metadata,
          idempotencyKey,
          requestHash,
          createdAt: new Date(),
        };
        return (await this.documents.insertProcessing(fields)) ? this.documents.findById(orgId, docId) : null;
      },
      work: {
        awaitsStart: (earlier) => earlier.status === 'processing',
        start: (document) => this.startIngestion(orgId, document.id),
        undo: async (document, error) => {
          this.logger.error({ err: error }, `could not start ingestion of document ${document.id}; removing it`);
          await this.documents.delete(orgId, document.id);
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

  /** The organisation's documents, newest first, optionally of one status and of one knowledge base. */
  async list(orgId: string, status: DocumentStatus | undefined, page: PageRequest, knowledgeBaseId?: string): Promise<Page<KnowledgeDocumentView>> {
    const found = await this.documents.list(orgId, status, page, knowledgeBaseId);
    return { items: await this.views(orgId, found.items), nextCursor: found.nextCursor };
  }

  /** As the API returns them: a processing document with its embedding progress (one query for all of them). */
  private async views(orgId: string, documents: Array<Omit<KnowledgeDocument, 'content'>>): Promise<KnowledgeDocumentView[]> {
    const processing = documents.filter((document) => document.status === 'processing').map((document) => document.id);
    const progress = processing.length > 0 ? await this.documents.embeddingProgress(orgId, processing) : new Map<string, EmbeddingProgress>();
    return documents.map((document) => toDocumentView(document, progress.get(document.id) ?? null));
  }

  async delete(orgId: string, docId: string): Promise<void> {
    if (!(await this.documents.delete(orgId, docId))) throw ApiError.notFound('no such document');
  }

  private async startIngestion(orgId: string, docId: string): Promise<void> {
    return this.workflows.start({
      workflowType: WORKFLOW_TYPES.knowledgeIngest,
      workflowId: knowledgeIngestWorkflowId(docId),
      args: [{ docId, orgId }],
      orgId,
      fairnessWeight: await this.limits.dispatchWeight(orgId),
      resourceId: docId,
      summary: `Knowledge ingestion of ${docId}`,
    });
  }
}
