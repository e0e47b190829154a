import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { ErrorCode, WORKFLOW_TYPES, knowledgeIngestWorkflowId } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { KnowledgeDocument, KnowledgeDocumentRepository } from '@pylon/db';
import { WorkflowStarter } from '@pylon/temporal';
import { ApiError } from '../common/api-error';
import { assertSameRequest, fingerprint } from '@pylon/idempotency';
import type { CreateDocumentRequest } from './dto/knowledge.dto';

const MAX_METADATA_BYTES = 16 * 1024;

/** Documents go in as `processing` and workflow `kb-ingest:<doc_id>` makes them searchable. */
@Injectable()
export class KnowledgeDocumentsService {
  private readonly logger = new Logger(KnowledgeDocumentsService.name);

  constructor(
    private readonly documents: KnowledgeDocumentRepository,
    private readonly workflows: WorkflowStarter,
    private readonly config: PylonConfig,
  ) {}

  async create(orgId: string, request: CreateDocumentRequest, idempotencyKey: string | null): Promise<KnowledgeDocument> {
    if (request.content.length > this.config.kbMaxDocumentChars) {
      throw new ApiError(ErrorCode.PayloadTooLarge, `content is longer than ${this.config.kbMaxDocumentChars} characters`);
    }
    const metadata = request.metadata ?? {};
    if (Buffer.byteLength(JSON.stringify(metadata)) > MAX_METADATA_BYTES) {
      throw ApiError.invalidRequest(`metadata is larger than ${MAX_METADATA_BYTES} bytes`);
    }
    const requestHash = fingerprint({ org_id: orgId, title: request.title, content: request.content, metadata: JSON.stringify(metadata) });
    if (idempotencyKey) {
      const earlier = await this.documents.findByIdempotencyKey(orgId, idempotencyKey);
      if (earlier) return this.replay(earlier, requestHash);
    }
    const docId = randomUUID();
    const inserted = await this.documents.insertProcessing({
      id: docId,
      orgId,
      title: request.title,
      content: request.content,
      metadata,
      idempotencyKey,
      requestHash,
      createdAt: new Date(),
    });
    if (!inserted && idempotencyKey) {
      const winner = await this.documents.findByIdempotencyKey(orgId, idempotencyKey);
      if (winner) return this.replay(winner, requestHash);
    }
    if (!inserted) throw new Error(`document ${docId} could not be inserted`);
    try {
      await this.startIngestion(orgId, docId);
    } catch (error) {
      this.logger.error({ err: error }, `could not start ingestion of document ${docId}; removing it`);
      await this.documents.delete(orgId, docId);
      throw new ApiError(ErrorCode.OrchestratorUnavailable, 'the workflow engine is unavailable; nothing was stored');
    }
    return (await this.documents.findById(orgId, docId))!;
  }

  async get(orgId: string, docId: string): Promise<KnowledgeDocument> {
    const document = await this.documents.findById(orgId, docId);
    if (!document) throw ApiError.notFound('no such document');
    return document;
  }

  async delete(orgId: string, docId: string): Promise<void> {
    if (!(await this.documents.delete(orgId, docId))) throw ApiError.notFound('no such document');
  }

  private startIngestion(orgId: string, docId: string): Promise<void> {
    return this.workflows.start({
      workflowType: WORKFLOW_TYPES.knowledgeIngest,
      workflowId: knowledgeIngestWorkflowId(docId),
      args: [{ docId, orgId }],
      orgId,
      resourceId: docId,
      summary: `Knowledge ingestion of ${docId}`,
    });
  }

  private async replay(earlier: KnowledgeDocument, requestHash: string): Promise<KnowledgeDocument> {
    assertSameRequest(earlier, requestHash);
    if (earlier.status === 'processing') await this.startIngestion(earlier.orgId, earlier.id);
    return earlier;
  }
}
