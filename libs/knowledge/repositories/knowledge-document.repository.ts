import { Injectable } from '@nestjs/common';
import { toSql } from 'pgvector';
import { DataSource, type EntityManager } from 'typeorm';
import type { DocumentStatus } from '@pylon/contracts';
import { KnowledgeDocument, Page, PageRequest, paginate, Outbox, type EventFactory, TOUCH_UPDATED_AT, countInStatus, returnedRows } from '@pylon/db';

export type NewKnowledgeDocument = Pick<
  KnowledgeDocument,
  'id' | 'orgId' | 'knowledgeBaseId' | 'title' | 'content' | 'metadata' | 'idempotencyKey' | 'requestHash' | 'createdAt'
> &
  Partial<Pick<KnowledgeDocument, 'fileName' | 'fileType' | 'fileSize' | 'fileKey'>>;

export interface EmbeddedChunk {
  index: number;
  content: string;
  start: number;
  end: number;
  pageStart: number | null;
  pageEnd: number | null;
  embedding: number[];
}

/** A processing document's chunks: embedded so far, and all of them. */
export interface EmbeddingProgress {
  embedded: number;
  total: number;
}

/**
 * What a replacement changes: the new revision's text, title and metadata, and its file (all null for a
 * revision made from text; the text is then extracted from the file).
 */
export interface RevisionFields {
  title: string;
  content: string;
  metadata: Record<string, unknown>;
  file?: Pick<KnowledgeDocument, 'fileName' | 'fileType' | 'fileSize' | 'fileKey'>;
}

/** A replacement sent with an Idempotency-Key, remembered with the revision it made. */
export interface ReplacementRecord {
  idempotencyKey: string;
  requestHash: string;
}

/**
 * What acceptRevision did: the document as the new revision made it; `stale` when the document is no
 * longer at the expected revision (or gone); `key-taken` when a concurrent replacement with the same
 * Idempotency-Key won. Nothing is written unless a document is returned.
 */
export type RevisionAcceptance = KnowledgeDocument | 'stale' | 'key-taken';

class KeyTaken extends Error {}
class NoLongerProcessing extends Error {}

/** A revision made searchable: its chunks, and the event to announce. */
export interface PublishedChunks {
  chunkCount: number;
  eventId: string | null;
}

@Injectable()
export class KnowledgeDocumentRepository {
  constructor(
    private readonly db: DataSource,
    private readonly outbox: Outbox,
  ) {}

  private get documents() {
    return this.db.getRepository(KnowledgeDocument);
  }

  /** Inserts a processing document; false when that id or idempotency key already exists. */
  async insertProcessing(document: NewKnowledgeDocument): Promise<boolean> {
    const inserted = (await this.db.query(
      `INSERT INTO knowledge_documents
         (id, org_id, title, content, metadata, status, chunk_count, idempotency_key, request_hash, created_at, updated_at,
          file_name, file_type, file_size, file_key, text_extracted, knowledge_base_id)
       VALUES ($1, $2, $3, $4, $5, 'processing', 0, $6, $7, $8, $8, $9, $10, $11, $12, $12::text IS NULL, $13)
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [
        document.id,
        document.orgId,
        document.title,
        document.content,
        JSON.stringify(document.metadata),
        document.idempotencyKey,
        document.requestHash,
        document.createdAt,
        document.fileName ?? null,
        document.fileType ?? null,
        document.fileSize ?? null,
        document.fileKey ?? null,
        document.knowledgeBaseId,
      ],
    )) as unknown[];
    return inserted.length > 0;
  }

  findById(orgId: string, docId: string): Promise<KnowledgeDocument | null> {
    return this.documents.findOneBy({ id: docId, orgId });
  }

  findByIdempotencyKey(orgId: string, idempotencyKey: string): Promise<KnowledgeDocument | null> {
    return this.documents.findOneBy({ orgId, idempotencyKey });
  }

  /** The organisation's documents, newest first, optionally of one status and of one knowledge base. */
  list(orgId: string, status: DocumentStatus | undefined, page: PageRequest, knowledgeBaseId?: string): Promise<Page<KnowledgeDocument>> {
    const query = this.documents
      .createQueryBuilder('doc')
      .select([
        'doc.id',
        'doc.orgId',
        'doc.knowledgeBaseId',
        'doc.title',
        'doc.metadata',
        'doc.status',
        'doc.failureReason',
        'doc.chunkCount',
        'doc.fileName',
        'doc.fileType',
        'doc.fileSize',
        'doc.revision',
        'doc.readyRevision',
        'doc.createdAt',
        'doc.updatedAt',
      ])
      .where('doc.org_id = :orgId', { orgId });
    if (status) query.andWhere('doc.status = :status', { status });
    if (knowledgeBaseId) query.andWhere('doc.knowledge_base_id = :knowledgeBaseId', { knowledgeBaseId });
    return paginate(query, page);
  }

  /**
   * For the organisation's documents among `docIds` that are still processing and were chunked into
   * drafts (a document larger than one round of embedding batches): how many of its chunks are embedded
   * so far, of how many.
   */
  async embeddingProgress(orgId: string, docIds: string[]): Promise<Map<string, EmbeddingProgress>> {
    const rows = (await this.db.query(
      `SELECT k.doc_id, count(k.embedding)::int AS embedded, count(*)::int AS total
         FROM knowledge_chunk_drafts k JOIN knowledge_documents d ON d.id = k.doc_id AND d.org_id = k.org_id AND d.revision = k.revision
        WHERE d.org_id = $1 AND d.id = ANY($2::uuid[]) AND d.status = 'processing'
        GROUP BY k.doc_id`,
      [orgId, docIds],
    )) as Array<{ doc_id: string; embedded: number; total: number }>;
    return new Map(rows.map((row) => [row.doc_id, { embedded: row.embedded, total: row.total }]));
  }

  /** The organisation's documents still processing, counted up to `upTo`. */
  countProcessing(orgId: string, upTo: number): Promise<number> {
    return countInStatus(this.db, 'knowledge_documents', orgId, 'processing', upTo);
  }

  /** The revision a replacement with this Idempotency-Key made, with its request's fingerprint; null if none did. */
  async findReplacement(orgId: string, docId: string, idempotencyKey: string): Promise<{ requestHash: string; revision: number } | null> {
    const [row] = (await this.db.query(
      `SELECT request_hash, revision FROM knowledge_document_replacements WHERE doc_id = $1 AND org_id = $2 AND idempotency_key = $3`,
      [docId, orgId, idempotencyKey],
    )) as Array<{ request_hash: string; revision: number }>;
    return row ? { requestHash: row.request_hash, revision: row.revision } : null;
  }

  /**
   * Accepts revision `expectedRevision + 1` in one transaction (and returns the document as it made it), only if the document is still at
   * `expectedRevision`: the new text, title and metadata, `processing`, no failure reason, the
   * replacement's Idempotency-Key remembered, earlier revisions' drafts dropped. Its ready revision and
   * chunks stay as they are (search keeps serving them until the new revision is published).
   */
  async acceptRevision(
    orgId: string,
    docId: string,
    expectedRevision: number,
    fields: RevisionFields,
    replacement: ReplacementRecord | null,
  ): Promise<RevisionAcceptance> {
    const revision = expectedRevision + 1;
    try {
      return await this.db.transaction(async (manager) => {
        const updated = (await manager.query(
          `UPDATE knowledge_documents
              SET revision = $4, title = $5, content = $6, metadata = $7, status = 'processing', failure_reason = NULL,
                  file_name = $8, file_type = $9, file_size = $10, file_key = $11, text_extracted = $11::text IS NULL, page_starts = NULL,
                  ${TOUCH_UPDATED_AT}
            WHERE id = $1 AND org_id = $2 AND revision = $3 RETURNING id`,
          [
            docId,
            orgId,
            expectedRevision,
            revision,
            fields.title,
            fields.content,
            JSON.stringify(fields.metadata),
            fields.file?.fileName ?? null,
            fields.file?.fileType ?? null,
            fields.file?.fileSize ?? null,
            fields.file?.fileKey ?? null,
          ],
        )) as unknown[];
        if (returnedRows(updated).length === 0) return 'stale';
        if (replacement) {
          const remembered = (await manager.query(
            `INSERT INTO knowledge_document_replacements (doc_id, org_id, idempotency_key, request_hash, revision, created_at)
             VALUES ($1, $2, $3, $4, $5, now()) ON CONFLICT DO NOTHING RETURNING doc_id`,
            [docId, orgId, replacement.idempotencyKey, replacement.requestHash, revision],
          )) as unknown[];
          if (remembered.length === 0) throw new KeyTaken();
        }
        await manager.query(`DELETE FROM knowledge_chunk_drafts WHERE doc_id = $1 AND org_id = $2 AND revision < $3`, [docId, orgId, revision]);
        return (await manager.findOneBy(KnowledgeDocument, { id: docId, orgId }))!;
      });
    } catch (error) {
      if (error instanceof KeyTaken) return 'key-taken';
      throw error;
    }
  }

  /**
   * Deletes the document; its chunks and drafts go with it in the same statement (ON DELETE CASCADE).
   * Null when there was no such document; else the key of its original file, if it had one.
   */
  async delete(orgId: string, docId: string): Promise<{ fileKey: string | null } | null> {
    const deleted = returnedRows(
      (await this.db.query(`DELETE FROM knowledge_documents WHERE id = $1 AND org_id = $2 RETURNING file_key`, [docId, orgId])) as unknown[],
    ) as Array<{ file_key: string | null }>;
    return deleted[0] ? { fileKey: deleted[0].file_key } : null;
  }

  /** Stores a file's extracted text as the processing revision's content; false when it no longer waits for it. */
  async saveExtractedText(orgId: string, docId: string, revision: number, text: string, pageStarts: number[] | null): Promise<boolean> {
    const updated = (await this.db.query(
      `UPDATE knowledge_documents SET content = $4, page_starts = $5, text_extracted = true, ${TOUCH_UPDATED_AT}
        WHERE id = $1 AND org_id = $2 AND revision = $3 AND status = 'processing' AND NOT text_extracted RETURNING id`,
      [docId, orgId, revision, text, pageStarts],
    )) as unknown[];
    return returnedRows(updated).length > 0;
  }

  /** Chunks in the organisation's ready documents, which decides the search strategy. */
  async readyChunkCount(orgId: string): Promise<number> {
    const [row] = (await this.db.query(
      `SELECT COALESCE(SUM(chunk_count), 0)::int AS total FROM knowledge_documents WHERE org_id = $1 AND ready_revision IS NOT NULL`,
      [orgId],
    )) as Array<{ total: number }>;
    return row?.total ?? 0;
  }

  /** Chunks in the ready documents of these of the organisation's knowledge bases. */
  async readyChunkCountIn(orgId: string, knowledgeBaseIds: readonly string[]): Promise<number> {
    const [row] = (await this.db.query(
      `SELECT COALESCE(SUM(chunk_count), 0)::int AS total FROM knowledge_documents
        WHERE org_id = $1 AND knowledge_base_id = ANY($2::uuid[]) AND status = 'ready'`,
      [orgId, knowledgeBaseIds],
    )) as Array<{ total: number }>;
    return row?.total ?? 0;
  }

  /**
   * Publishes the document's revision (as read by the caller, processing) in one transaction: its drafts
   * become the searchable chunks (the previous revision's go), the drafts go, the document turns ready and
   * its event is recorded. Null, with nothing changed, when that revision is no longer the document's
   * processing one (a later revision accepted, the document failed or deleted meanwhile).
   */
  async publishDrafts(orgId: string, document: KnowledgeDocument, describe: EventFactory<KnowledgeDocument>): Promise<PublishedChunks | null> {
    return this.publishWith(orgId, document, describe, async (manager) => {
      const [missing] = (await manager.query(
        `SELECT count(*)::int AS n FROM knowledge_chunk_drafts WHERE doc_id = $1 AND org_id = $2 AND revision = $3 AND embedding IS NULL`,
        [document.id, orgId, document.revision],
      )) as Array<{ n: number }>;
      if (missing && missing.n > 0) throw new Error(`${missing.n} chunks of document ${document.id} have no embedding yet`);
      const inserted = (await manager.query(
        `INSERT INTO knowledge_chunks (id, org_id, doc_id, chunk_index, content, start_offset, end_offset, page_start, page_end, embedding)
         SELECT gen_random_uuid(), $2, doc_id, chunk_index, content, start_offset, end_offset, page_start, page_end, embedding
           FROM knowledge_chunk_drafts WHERE doc_id = $1 AND org_id = $2 AND revision = $3
         RETURNING chunk_index`,
        [document.id, orgId, document.revision],
      )) as unknown[];
      return inserted.length;
    });
  }

  /** Publishes the document's revision from chunks embedded in memory (no drafts), in one transaction as publishDrafts does. */
  async publishChunks(
    orgId: string,
    document: KnowledgeDocument,
    chunks: EmbeddedChunk[],
    describe: EventFactory<KnowledgeDocument>,
  ): Promise<PublishedChunks | null> {
    return this.publishWith(orgId, document, describe, async (manager) => {
      if (chunks.length > 0) {
        await manager.query(
          `INSERT INTO knowledge_chunks (id, org_id, doc_id, chunk_index, content, start_offset, end_offset, page_start, page_end, embedding)
           SELECT gen_random_uuid(), $2, $1, c.chunk_index, c.content, c.start_offset, c.end_offset, c.page_start, c.page_end, c.embedding::vector
             FROM unnest($3::int[], $4::text[], $5::int[], $6::int[], $7::int[], $8::int[], $9::text[])
                  AS c(chunk_index, content, start_offset, end_offset, page_start, page_end, embedding)`,
          [
            document.id,
            orgId,
            chunks.map((chunk) => chunk.index),
            chunks.map((chunk) => chunk.content),
            chunks.map((chunk) => chunk.start),
            chunks.map((chunk) => chunk.end),
            chunks.map((chunk) => chunk.pageStart),
            chunks.map((chunk) => chunk.pageEnd),
            chunks.map((chunk) => toSql(chunk.embedding)),
          ],
        );
      }
      return chunks.length;
    });
  }

  /**
   * The transaction both ways of publishing share: swap the chunks (the old revision's out,
   * `insertChunks`' in), then turn the document ready only if it is still at this revision and processing
   * (rolling everything back if not), drop the drafts, record the event. The document is updated before the
   * drafts are touched, in the order a replacement takes them, so the two never wait on each other.
   */
  private async publishWith(
    orgId: string,
    document: KnowledgeDocument,
    describe: EventFactory<KnowledgeDocument>,
    insertChunks: (manager: EntityManager) => Promise<number>,
  ): Promise<PublishedChunks | null> {
    const { id: docId, revision } = document;
    try {
      return await this.db.transaction(async (manager) => {
        await manager.query(`DELETE FROM knowledge_chunks WHERE doc_id = $1 AND org_id = $2`, [docId, orgId]);
        const chunkCount = await insertChunks(manager);
        const [ready] = returnedRows<{ updated_at: Date }>(
          await manager.query(
            `UPDATE knowledge_documents SET status = 'ready', chunk_count = $3, ready_revision = $4, failure_reason = NULL, ${TOUCH_UPDATED_AT}
              WHERE id = $1 AND org_id = $2 AND revision = $4 AND status = 'processing' RETURNING updated_at`,
            [docId, orgId, chunkCount, revision],
          ),
        );
        if (!ready) throw new NoLongerProcessing();
        await manager.query(`DELETE FROM knowledge_chunk_drafts WHERE doc_id = $1 AND org_id = $2 AND revision <= $3`, [docId, orgId, revision]);
        const published = {
          ...document,
          status: 'ready' as const,
          chunkCount,
          readyRevision: revision,
          failureReason: null,
          updatedAt: ready.updated_at,
        };
        const eventId = await this.outbox.recordChange(manager, orgId, docId, (event) => event.record(describe(published)));
        return { chunkCount, eventId };
      });
    } catch (error) {
      if (error instanceof NoLongerProcessing) return null;
      throw error;
    }
  }

  /** The document's latest event whose deliveries were never attempted (for a change an earlier attempt made), else null. */
  unannouncedEvent(orgId: string, docId: string): Promise<string | null> {
    return this.outbox.unannouncedEvent(this.db.manager, orgId, docId);
  }

  /**
   * Revision `revision`, processing → failed, dropping its drafts (and older ones) and recording the event; the ready
   * revision's chunks stay searchable. Null when that revision is not the document's processing one (only
   * the drafts are dropped then).
   */
  async markFailed(
    orgId: string,
    docId: string,
    revision: number,
    reason: string,
    describe: EventFactory<KnowledgeDocument>,
  ): Promise<{ eventId: string | null } | null> {
    return this.db.transaction(async (manager) => {
      const updated = (await manager.query(
        `UPDATE knowledge_documents SET status = 'failed', failure_reason = $4, ${TOUCH_UPDATED_AT}
          WHERE id = $1 AND org_id = $2 AND revision = $3 AND status = 'processing' RETURNING id`,
        [docId, orgId, revision, reason.slice(0, 1000)],
      )) as unknown[];
      // Its drafts, and any an earlier, superseded revision wrote after this one was accepted.
      await manager.query(`DELETE FROM knowledge_chunk_drafts WHERE doc_id = $1 AND org_id = $2 AND revision <= $3`, [docId, orgId, revision]);
      if (returnedRows(updated).length === 0) return null;
      const eventId = await this.outbox.recordChange(manager, orgId, docId, async (event) =>
        event.record(describe((await manager.findOneBy(KnowledgeDocument, { id: docId, orgId }))!)),
      );
      return { eventId };
    });
  }
}
