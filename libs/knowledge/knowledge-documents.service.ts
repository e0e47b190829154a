import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { PylonError, ErrorCode, WORKFLOW_TYPES, knowledgeIngestWorkflowId, type DocumentStatus } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { KnowledgeDocument, type Page, type PageRequest } from '@pylon/db';
import {
  KnowledgeDocumentRepository,
  type EmbeddingProgress,
  type NewKnowledgeDocument,
  type ReplacementRecord,
  type RevisionAcceptance,
} from './repositories/knowledge-document.repository';
import { createOnce, fingerprint } from '@pylon/idempotency';
import { LimitsService, RetryLaterError } from '@pylon/limits';
import { WorkflowStarter } from '@pylon/temporal';
import { DocumentFileStore } from './document-file-store';
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

/** A document as accepted, before it has an id: from text, or from an uploaded file (its text still to extract). */
export type DocumentDraft = Omit<NewKnowledgeDocument, 'id' | 'orgId' | 'knowledgeBaseId' | 'idempotencyKey' | 'requestHash' | 'createdAt'> & {
  /** The base it names; the organisation's default when absent. */
  knowledgeBaseId?: string;
};

/**
 * What a replacement asks for: the new revision's text, and a new title and metadata if given (the
 * current ones are kept otherwise), or its file.
 */
export interface DocumentRevisionRequest {
  content: string;
  title?: string;
  metadata?: Record<string, unknown>;
  /** A revision from an uploaded file (its `content` empty until extracted), with the file's SHA-256. */
  file?: RevisionFile;
}

export type RevisionFile = Pick<KnowledgeDocument, 'fileName' | 'fileType' | 'fileSize' | 'fileKey'> & { sha256: string };

const MAX_METADATA_BYTES = 16 * 1024;

/** Concurrent replacements each retry with the next revision number; one that loses this often is told to retry later. */
const MAX_REVISION_ATTEMPTS = 25;

/** What a replacement with an Idempotency-Key made: the fingerprint of its request, and the document when this request made it. */
interface Replacement {
  requestHash: string;
  document?: KnowledgeDocument;
}

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
    private readonly bases: KnowledgeBasesService,
  ) {}

  async create(orgId: string, request: NewDocumentRequest, idempotencyKey: string | null): Promise<KnowledgeDocument> {
    this.checkLimits(request);
    const metadata = checkMetadata(request.metadata);
    const requested = request.knowledge_base_id;
    const requestHash = fingerprint({
      org_id: orgId,
      title: request.title,
      content: request.content,
      metadata: JSON.stringify(metadata),
      // Only when named, so that the fingerprint of a request without it is what it was before bases.
      ...(requested === undefined ? {} : { knowledge_base_id: requested }),
    });
    return this.accept(orgId, { title: request.title, content: request.content, metadata, knowledgeBaseId: requested }, requestHash, idempotencyKey);
  }

  /**
   * The one way a document comes in: inserted as processing into the base it names (else the
   * organisation's default), once per Idempotency-Key and `requestHash`, admitted to the organisation's
   * backlog, and its ingestion workflow started; if that cannot start, the document (and its file) is
   * removed again and the caller told.
   */
  async accept(orgId: string, draft: DocumentDraft, requestHash: string, idempotencyKey: string | null): Promise<KnowledgeDocument> {
    return createOnce<KnowledgeDocument>(idempotencyKey, requestHash, {
      findByKey: (key) => this.documents.findByIdempotencyKey(orgId, key),
      admit: async () => {
        if (draft.knowledgeBaseId !== undefined) await this.bases.assertExist(orgId, [draft.knowledgeBaseId], 'knowledge_base_id');
        await this.limits.admitToBacklog(orgId, 'documents', (upTo) => this.documents.countProcessing(orgId, upTo));
      },
      insert: async () => {
        const docId = randomUUID();
        const fields = {
          ...draft,
          id: docId,
          orgId,
          knowledgeBaseId: await this.bases.baseForDocument(orgId, draft.knowledgeBaseId),
          idempotencyKey,
          requestHash,
          createdAt: new Date(),
        };
        return (await this.documents.insertProcessing(fields)) ? this.documents.findById(orgId, docId) : null;
      },
      work: {
        awaitsStart: (earlier) => earlier.status === 'processing',
        start: (document) => this.startIngestion(orgId, document.id, 1, document.fileKey !== null),
        undo: async (document, error) => {
          this.logger.error({ err: error }, `could not start ingestion of document ${document.id}; removing it`);
          await this.delete(orgId, document.id);
          return new PylonError(ErrorCode.OrchestratorUnavailable, 'the workflow engine is unavailable; nothing was stored');
        },
      },
    });
  }

  /**
   * Replaces a document's text (and title, metadata) by a new revision, n+1, in place: the document is
   * `processing` again while search keeps serving revision n's chunks, until revision n+1's workflow
   * swaps its chunks in, in one transaction (KnowledgeIngestionService).
   *
   * The order is what makes it safe: first the workflow of revision n+1 is started (`kb-ingest:<doc_id>:r<n+1>`;
   * it waits, retrying, until its revision is accepted), then revision n+1 is written, only if the
   * document is still at n. So an unavailable workflow engine changes nothing (503), and no accepted
   * revision ever waits for a workflow that was never started. A replacement that lost the race for n+1
   * to a concurrent one tries again as n+2 (the workflow it started for n+1 is the winner's: same id). A
   * start whose write never comes (the process died between) leaves a workflow that gives up and changes
   * nothing; it may run again under its id (`rerunWhenClosed`), so a later replacement is never stuck behind it.
   *
   * With an Idempotency-Key (createOnce): the key is remembered in the transaction that writes the
   * revision, so a retry after a 503 or a lost answer either finds it (and answers the document, 409 if
   * the body differs) or finds nothing written and replaces anew.
   */
  async replace(orgId: string, docId: string, request: DocumentRevisionRequest, idempotencyKey: string | null): Promise<KnowledgeDocument> {
    if (request.file) checkMetadata(request.metadata);
    else this.checkLimits(request);
    const requestHash = fingerprint({
      org_id: orgId,
      doc_id: docId,
      content: request.file ? `file sha256:${request.file.sha256}` : request.content,
      title: JSON.stringify(request.title ?? null),
      metadata: JSON.stringify(request.metadata ?? null),
    });
    let admitted: KnowledgeDocument | undefined;
    const replaced = await createOnce<Replacement>(idempotencyKey, requestHash, {
      findByKey: (key) => this.documents.findReplacement(orgId, docId, key),
      admit: async () => {
        admitted = await this.found(orgId, docId);
        if (admitted.status !== 'processing') {
          await this.limits.admitToBacklog(orgId, 'documents', (upTo) => this.documents.countProcessing(orgId, upTo));
        }
      },
      insert: async () => {
        let current = admitted!;
        for (let attempt = 0; attempt < MAX_REVISION_ATTEMPTS; attempt++) {
          if (attempt > 0) current = await this.found(orgId, docId);
          const accepted = await this.acceptNextRevision(orgId, current, request, idempotencyKey ? { idempotencyKey, requestHash } : null);
          if (accepted === 'key-taken') {
            // The concurrent request with this key won: createOnce answers its replacement, or 404 if the document went since.
            if (!(await this.documents.findReplacement(orgId, docId, idempotencyKey!))) await this.found(orgId, docId);
            return null;
          }
          if (accepted !== 'stale') return { requestHash, document: accepted };
          // Another replacement was accepted first (or the document was deleted): a retry with this key, if it won, is answered.
          if (idempotencyKey && (await this.documents.findReplacement(orgId, docId, idempotencyKey))) return null;
        }
        throw new RetryLaterError(`document ${docId} is being replaced by many requests at once; retry shortly`, 1);
      },
    });
    return replaced.document ?? this.found(orgId, docId);
  }

  /**
   * Starts the workflow of the revision after `current`, then writes that revision if the document is
   * still at `current`'s (see replace). The original the revision replaces is removed from the store.
   */
  private async acceptNextRevision(
    orgId: string,
    current: KnowledgeDocument,
    request: DocumentRevisionRequest,
    replacement: ReplacementRecord | null,
  ): Promise<RevisionAcceptance> {
    const revision = current.revision + 1;
    try {
      await this.startIngestion(orgId, current.id, revision, request.file !== undefined);
    } catch (error) {
      this.logger.error({ err: error }, `could not start ingestion of revision ${revision} of document ${current.id}; nothing was changed`);
      throw new PylonError(ErrorCode.OrchestratorUnavailable, 'the workflow engine is unavailable; the document was not changed');
    }
    const accepted = await this.documents.acceptRevision(
      orgId,
      current.id,
      current.revision,
      {
        title: request.title ?? current.title,
        content: request.content,
        metadata: request.metadata ?? current.metadata,
        file: request.file && {
          fileName: request.file.fileName,
          fileType: request.file.fileType,
          fileSize: request.file.fileSize,
          fileKey: request.file.fileKey,
        },
      },
      replacement,
    );
    // The original now is the new revision's; the old one is no longer downloadable.
    if (typeof accepted !== 'string' && current.fileKey && current.fileKey !== accepted.fileKey) await this.files.remove(current.fileKey);
    return accepted;
  }

  async get(orgId: string, docId: string): Promise<KnowledgeDocumentView> {
    const document = await this.documents.findById(orgId, docId);
    if (!document) throw PylonError.notFound('no such document');
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

  /** Deletes the document, its chunks at once, and its original file. */
  async delete(orgId: string, docId: string): Promise<void> {
    const deleted = await this.documents.delete(orgId, docId);
    if (!deleted) throw PylonError.notFound('no such document');
    if (deleted.fileKey) await this.files.remove(deleted.fileKey);
  }

  private async found(orgId: string, docId: string): Promise<KnowledgeDocument> {
    const document = await this.documents.findById(orgId, docId);
    if (!document) throw PylonError.notFound('no such document');
    return document;
  }

  /** The limits a document's text and metadata must keep, at create and at every replacement. */
  private checkLimits(request: { content: string; metadata?: Record<string, unknown> }): void {
    if (request.content.length > this.config.kbMaxDocumentChars) {
      throw new PylonError(ErrorCode.PayloadTooLarge, `content is longer than ${this.config.kbMaxDocumentChars} characters`);
    }
    checkMetadata(request.metadata);
  }

  /** One workflow per revision; revision 1's keeps the id it had before revisions. */
  private async startIngestion(orgId: string, docId: string, revision: number, fromFile: boolean): Promise<void> {
    return this.workflows.start({
      workflowType: WORKFLOW_TYPES.knowledgeIngest,
      workflowId: knowledgeIngestWorkflowId(docId, revision),
      args: [fromFile ? { docId, orgId, revision, fromFile } : { docId, orgId, revision }],
      orgId,
      fairnessWeight: await this.limits.dispatchWeight(orgId),
      resourceId: docId,
      summary: revision === 1 ? `Knowledge ingestion of ${docId}` : `Knowledge ingestion of ${docId}, revision ${revision}`,
      rerunWhenClosed: revision > 1,
    });
  }
}

/** Metadata as stored: an object (empty when none was sent), at most MAX_METADATA_BYTES as JSON. */
export function checkMetadata(metadata: Record<string, unknown> | undefined): Record<string, unknown> {
  const checked = metadata ?? {};
  if (Buffer.byteLength(JSON.stringify(checked)) > MAX_METADATA_BYTES) {
    throw PylonError.invalidRequest(`metadata is larger than ${MAX_METADATA_BYTES} bytes`);
  }
  return checked;
}
