import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import {
  PylonError,
  ErrorCode,
  WORKFLOW_TYPES,
  knowledgeBatchWorkflowId,
  type DocumentStatus,
  type IngestDocumentInput,
  type KnowledgeBatchStatus,
} from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { KnowledgeBatch } from '@pylon/db';
import { KnowledgeBatchRepository } from './repositories/knowledge-batch.repository';
import { KnowledgeDocumentRepository } from './repositories/knowledge-document.repository';
import { createOnce, fingerprint } from '@pylon/idempotency';
import { LimitsService } from '@pylon/limits';
import { WorkflowStarter } from '@pylon/temporal';
import { DocumentFileStore } from './document-file-store';
import { documentEvent } from './document-view';
import { checkMetadata, type DocumentDraft, type NewDocumentRequest } from './knowledge-documents.service';
import { KnowledgeFilesService, type ReceivedFile } from './knowledge-files.service';
import { KnowledgeBasesService } from './knowledge-bases.service';

/** A batch as the API returns it: its documents counted by status, and listed. */
export interface KnowledgeBatchView {
  batch_id: string;
  org_id: string;
  status: KnowledgeBatchStatus;
  counts: { total: number } & Record<DocumentStatus, number>;
  documents: Array<{ doc_id: string; title: string; status: DocumentStatus; failure_reason: string | null }>;
  created_at: string;
  updated_at: string;
}

/** Why a document of a cancelled batch never became searchable. */
export const CANCELLED_WITH_BATCH = 'the batch was cancelled before this document was ingested';

/**
 * Batches: up to MAX_BATCH_DOCUMENTS documents (texts, or files) accepted together, all or none, into the
 * organisation's backlog, and ingested by one `kb-batch:<batch_id>` workflow that runs their own
 * ingestion workflows a few at a time, dispatched fairly with every other organisation's work.
 */
@Injectable()
export class KnowledgeBatchesService {
  private readonly logger = new Logger(KnowledgeBatchesService.name);

  constructor(
    private readonly batches: KnowledgeBatchRepository,
    private readonly documents: KnowledgeDocumentRepository,
    private readonly files: KnowledgeFilesService,
    private readonly store: DocumentFileStore,
    private readonly workflows: WorkflowStarter,
    private readonly limits: LimitsService,
    private readonly config: PylonConfig,
    private readonly bases: KnowledgeBasesService,
  ) {}

  async createFromTexts(
    orgId: string,
    knowledgeBaseId: string | undefined,
    requests: Omit<NewDocumentRequest, 'knowledge_base_id'>[],
    idempotencyKey: string | null,
  ): Promise<KnowledgeBatchView> {
    const drafts = requests.map((request, i): DocumentDraft => {
      if (request.content.length > this.config.kbMaxDocumentChars) {
        throw new PylonError(ErrorCode.PayloadTooLarge, `documents.${i}.content is longer than ${this.config.kbMaxDocumentChars} characters`);
      }
      return { title: request.title, content: request.content, metadata: checkMetadata(request.metadata) };
    });
    const requestHash = fingerprint({
      org_id: orgId,
      knowledge_base_id: knowledgeBaseId ?? '',
      documents: JSON.stringify(drafts.map((d) => [d.title, d.content, d.metadata])),
    });
    return this.view(orgId, await this.create(orgId, knowledgeBaseId, drafts, requestHash, idempotencyKey));
  }

  /** A batch of received files, each recognised from its bytes (one that is not a document refuses the batch). */
  async createFromFiles(
    orgId: string,
    files: ReceivedFile[],
    fields: { metadata?: Record<string, unknown>; knowledgeBaseId?: string },
    idempotencyKey: string | null,
  ): Promise<KnowledgeBatchView> {
    try {
      const metadata = checkMetadata(fields.metadata);
      const drafts = files.map((file, i): DocumentDraft => {
        const type = this.files.recognise(file, `files.${i} (${file.fileName ?? 'unnamed'})`);
        return { ...this.files.draftOf(file, type, {}), metadata };
      });
      const requestHash = fingerprint({
        org_id: orgId,
        knowledge_base_id: fields.knowledgeBaseId ?? '',
        files: files.map((f) => `${f.fileName}:${f.sha256}`).join('|'),
        metadata: JSON.stringify(metadata),
      });
      const batch = await this.create(orgId, fields.knowledgeBaseId, drafts, requestHash, idempotencyKey);
      const kept = new Set((await this.batches.fileKeys(orgId, batch.id)).filter((key) => key !== null));
      await Promise.all(files.filter((file) => !kept.has(file.key)).map((file) => this.files.discard(file)));
      return this.view(orgId, batch);
    } catch (error) {
      await Promise.all(files.map((file) => this.files.discard(file)));
      throw error;
    }
  }

  async get(orgId: string, batchId: string): Promise<KnowledgeBatchView> {
    const batch = await this.batches.findById(orgId, batchId);
    if (!batch) throw PylonError.notFound('no such batch');
    return this.view(orgId, batch);
  }

  /**
   * Stops the batch: documents not yet begun end failed (CANCELLED_WITH_BATCH), those being ingested
   * finish. Cancelling an ended batch changes nothing.
   */
  async cancel(orgId: string, batchId: string): Promise<KnowledgeBatchView> {
    const batch = await this.batches.findById(orgId, batchId);
    if (!batch) throw PylonError.notFound('no such batch');
    if (batch.status === 'processing') {
      await this.workflows.cancel(knowledgeBatchWorkflowId(batchId));
      await this.batches.finish(orgId, batchId, 'cancelled');
    }
    return this.get(orgId, batchId);
  }

  /** For the batch workflow: the ingestion workflows' inputs, in the batch's order. */
  async ingestionInputs(orgId: string, batchId: string): Promise<IngestDocumentInput[]> {
    const documents = await this.batches.ingestionInputs(orgId, batchId);
    return documents.map(({ docId, fromFile }) => (fromFile ? { docId, orgId, fromFile } : { docId, orgId }));
  }

  /** For the batch workflow, at its end: completed, or cancelled with the documents never begun failed (their events' ids). */
  async finish(orgId: string, batchId: string, cancelled: boolean, notStarted: string[]): Promise<string[]> {
    if (!cancelled) {
      await this.batches.finish(orgId, batchId, 'completed');
      return [];
    }
    const eventIds = await this.batches.failDocuments(orgId, batchId, notStarted, CANCELLED_WITH_BATCH, documentEvent);
    await this.batches.finish(orgId, batchId, 'cancelled');
    return eventIds;
  }

  private create(
    orgId: string,
    knowledgeBaseId: string | undefined,
    drafts: DocumentDraft[],
    requestHash: string,
    idempotencyKey: string | null,
  ): Promise<KnowledgeBatch> {
    return createOnce<KnowledgeBatch>(idempotencyKey, requestHash, {
      findByKey: (key) => this.batches.findByIdempotencyKey(orgId, key),
      admit: async () => {
        if (knowledgeBaseId !== undefined) await this.bases.assertExist(orgId, [knowledgeBaseId], 'knowledge_base_id');
        await this.limits.admitToBacklog(orgId, 'documents', (upTo) => this.documents.countProcessing(orgId, upTo), drafts.length);
      },
      insert: async () => {
        const createdAt = new Date();
        const baseId = await this.bases.baseForDocument(orgId, knowledgeBaseId);
        const batch = { id: randomUUID(), knowledgeBaseId: baseId, idempotencyKey, requestHash, createdAt };
        const documents = drafts.map(({ knowledgeBaseId: _named, ...draft }) => ({
          ...draft,
          id: randomUUID(),
          orgId,
          idempotencyKey: null,
          requestHash: null,
          createdAt,
        }));
        return (await this.batches.insert(orgId, batch, documents)) ? this.batches.findById(orgId, batch.id) : null;
      },
      work: {
        awaitsStart: (earlier) => earlier.status === 'processing',
        start: async (batch) =>
          this.workflows.start({
            workflowType: WORKFLOW_TYPES.knowledgeBatch,
            workflowId: knowledgeBatchWorkflowId(batch.id),
            args: [{ batchId: batch.id, orgId }],
            orgId,
            fairnessWeight: await this.limits.dispatchWeight(orgId),
            resourceId: batch.id,
            summary: `Knowledge batch ${batch.id} (${batch.documentCount} documents)`,
          }),
        undo: async (batch, error) => {
          this.logger.error({ err: error }, `could not start batch ${batch.id}; removing it`);
          const fileKeys = await this.batches.delete(orgId, batch.id);
          await Promise.all(fileKeys.map((key) => this.store.remove(key)));
          return new PylonError(ErrorCode.OrchestratorUnavailable, 'the workflow engine is unavailable; nothing was stored');
        },
      },
    });
  }

  private async view(orgId: string, batch: KnowledgeBatch): Promise<KnowledgeBatchView> {
    const documents = await this.batches.documents(orgId, batch.id);
    const counts = { total: documents.length, processing: 0, ready: 0, failed: 0 };
    for (const document of documents) counts[document.status]++;
    return {
      batch_id: batch.id,
      org_id: batch.orgId,
      status: batch.status,
      counts,
      documents: documents.map((d) => ({ doc_id: d.id, title: d.title, status: d.status, failure_reason: d.failureReason })),
      created_at: batch.createdAt.toISOString(),
      updated_at: batch.updatedAt.toISOString(),
    };
  }
}
