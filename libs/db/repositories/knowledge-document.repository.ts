import { Injectable } from '@nestjs/common';
import { toSql } from 'pgvector';
import { DataSource, type EntityManager } from 'typeorm';
import type { DocumentStatus, PublishOutcome } from '@pylon/contracts';
import { KnowledgeDocument } from '../entities';
import { Page, PageRequest, paginate } from '../pagination';
import { recordEvent, unannouncedEvent, type NewEvent } from './event-recorder';
import { TOUCH_UPDATED_AT, countInStatus, returnedRows } from './sql';

export type NewKnowledgeDocument = Pick<
  KnowledgeDocument,
  'id' | 'orgId' | 'knowledgeBaseId' | 'title' | 'content' | 'metadata' | 'idempotencyKey' | 'requestHash' | 'createdAt'
>;

export interface EmbeddedChunk {
  index: number;
  content: string;
  start: number;
  end: number;
  embedding: number[];
}

/** A processing document's chunks: embedded so far, and all of them. */
export interface EmbeddingProgress {
  embedded: number;
  total: number;
}

/** Describes the event of a document's final state, from the document as it is then. */
export type DocumentEventFactory = (document: KnowledgeDocument) => Omit<NewEvent, 'orgId' | 'resourceId'>;

@Injectable()
export class KnowledgeDocumentRepository {
  constructor(private readonly db: DataSource) {}

  private get documents() {
    return this.db.getRepository(KnowledgeDocument);
  }

  /** Inserts a processing document; false when that id or idempotency key already exists. */
  async insertProcessing(document: NewKnowledgeDocument): Promise<boolean> {
    const inserted = (await this.db.query(
      `INSERT INTO knowledge_documents
         (id, org_id, title, content, metadata, status, chunk_count, idempotency_key, request_hash, created_at, updated_at, knowledge_base_id)
       VALUES ($1, $2, $3, $4, $5, 'processing', 0, $6, $7, $8, $8, $9)
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
         FROM knowledge_chunk_drafts k JOIN knowledge_documents d ON d.id = k.doc_id AND d.org_id = k.org_id
        WHERE d.org_id = $1 AND d.id = ANY($2::uuid[]) AND d.status = 'processing'
        GROUP BY k.doc_id`,
      [orgId, docIds],
    )) as Array<{ doc_id: string; embedded: number; total: number }>;
    return new Map(rows.map((row) => [row.doc_id, { embedded: row.embedded, total: row.total }]));
  }

  /** Deletes the document; its chunks and drafts go with it in the same statement (ON DELETE CASCADE). */
  /** The organisation's documents still processing, counted up to `upTo`. */
  countProcessing(orgId: string, upTo: number): Promise<number> {
    return countInStatus(this.db, 'knowledge_documents', orgId, 'processing', upTo);
  }

  async delete(orgId: string, docId: string): Promise<boolean> {
    const deleted = (await this.db.query(`DELETE FROM knowledge_documents WHERE id = $1 AND org_id = $2 RETURNING id`, [docId, orgId])) as unknown[];
    return returnedRows(deleted).length > 0;
  }

  /** Chunks in the organisation's ready documents, which decides the search strategy. */
  async readyChunkCount(orgId: string): Promise<number> {
    const [row] = (await this.db.query(
      `SELECT COALESCE(SUM(chunk_count), 0)::int AS total FROM knowledge_documents WHERE org_id = $1 AND status = 'ready'`,
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
   * Publishes a processing document in one transaction: its drafts become searchable chunks, the
   * drafts go, the document turns ready and its event is recorded. False when it is no longer processing.
   */
  async publish(orgId: string, docId: string, describe: DocumentEventFactory): Promise<PublishOutcome> {
    return this.publishWith(orgId, docId, describe, async (manager) => {
      const [missing] = (await manager.query(
        `SELECT count(*)::int AS n FROM knowledge_chunk_drafts WHERE doc_id = $1 AND org_id = $2 AND embedding IS NULL`,
        [docId, orgId],
      )) as Array<{ n: number }>;
      if (missing && missing.n > 0) throw new Error(`${missing.n} chunks of document ${docId} have no embedding yet`);
      const inserted = (await manager.query(
        `INSERT INTO knowledge_chunks (id, org_id, doc_id, chunk_index, content, start_offset, end_offset, embedding)
         SELECT gen_random_uuid(), $2, doc_id, chunk_index, content, start_offset, end_offset, embedding
           FROM knowledge_chunk_drafts WHERE doc_id = $1 AND org_id = $2
         RETURNING chunk_index`,
        [docId, orgId],
      )) as unknown[];
      await manager.query(`DELETE FROM knowledge_chunk_drafts WHERE doc_id = $1 AND org_id = $2`, [docId, orgId]);
      return inserted.length;
    });
  }

  /** Publishes a processing document from chunks embedded in memory (no drafts), in one transaction as publish does. */
  async publishChunks(orgId: string, docId: string, chunks: EmbeddedChunk[], describe: DocumentEventFactory): Promise<PublishOutcome> {
    return this.publishWith(orgId, docId, describe, async (manager) => {
      if (chunks.length > 0) {
        await manager.query(
          `INSERT INTO knowledge_chunks (id, org_id, doc_id, chunk_index, content, start_offset, end_offset, embedding)
           SELECT gen_random_uuid(), $2, $1, c.chunk_index, c.content, c.start_offset, c.end_offset, c.embedding::vector
             FROM unnest($3::int[], $4::text[], $5::int[], $6::int[], $7::text[]) AS c(chunk_index, content, start_offset, end_offset, embedding)`,
          [
            docId,
            orgId,
            chunks.map((chunk) => chunk.index),
            chunks.map((chunk) => chunk.content),
            chunks.map((chunk) => chunk.start),
            chunks.map((chunk) => chunk.end),
            chunks.map((chunk) => toSql(chunk.embedding)),
          ],
        );
      }
      return chunks.length;
    });
  }

  /** The transaction both ways of publishing share: lock, replace the chunks (`insertChunks`), ready, event. */
  private publishWith(
    orgId: string,
    docId: string,
    describe: DocumentEventFactory,
    insertChunks: (manager: EntityManager) => Promise<number>,
  ): Promise<PublishOutcome> {
    return this.db.transaction(async (manager) => {
      const [locked] = (await manager.query(`SELECT status FROM knowledge_documents WHERE id = $1 AND org_id = $2 FOR UPDATE`, [
        docId,
        orgId,
      ])) as Array<{ status: DocumentStatus }>;
      if (!locked || locked.status !== 'processing') {
        return { published: false, chunkCount: 0, eventId: locked ? await unannouncedEvent(manager, orgId, docId) : null };
      }
      await manager.query(`DELETE FROM knowledge_chunks WHERE doc_id = $1`, [docId]);
      const chunkCount = await insertChunks(manager);
      await manager.query(
        `UPDATE knowledge_documents SET status = 'ready', chunk_count = $3, failure_reason = NULL, ${TOUCH_UPDATED_AT} WHERE id = $1 AND org_id = $2`,
        [docId, orgId, chunkCount],
      );
      const document = (await manager.findOneBy(KnowledgeDocument, { id: docId, orgId }))!;
      const eventId = await recordEvent(manager, { orgId, resourceId: docId, ...describe(document) });
      return { published: true, chunkCount, eventId };
    });
  }

  /** processing → failed, dropping any drafts and recording the event. A final document stays as it is. */
  async markFailed(orgId: string, docId: string, reason: string, describe: DocumentEventFactory): Promise<string | null> {
    return this.db.transaction(async (manager) => {
      const updated = (await manager.query(
        `UPDATE knowledge_documents SET status = 'failed', failure_reason = $3, ${TOUCH_UPDATED_AT}
          WHERE id = $1 AND org_id = $2 AND status = 'processing' RETURNING id`,
        [docId, orgId, reason.slice(0, 1000)],
      )) as unknown[];
      await manager.query(`DELETE FROM knowledge_chunk_drafts WHERE doc_id = $1 AND org_id = $2`, [docId, orgId]);
      if (returnedRows(updated).length === 0) return unannouncedEvent(manager, orgId, docId);
      const document = (await manager.findOneBy(KnowledgeDocument, { id: docId, orgId }))!;
      return recordEvent(manager, { orgId, resourceId: docId, ...describe(document) });
    });
  }
}
