import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { DocumentStatus } from '@pylon/contracts';
import { KnowledgeBatch, KnowledgeDocument, Outbox, type EventFactory, TOUCH_UPDATED_AT, returnedRows } from '@pylon/db';
import type { NewKnowledgeDocument } from './knowledge-document.repository';

/** A batch to insert; all its documents go into one knowledge base. */
export type NewKnowledgeBatch = Pick<KnowledgeBatch, 'id' | 'idempotencyKey' | 'requestHash' | 'createdAt'> & { knowledgeBaseId: string };

/** A batch's document as the batch lists it. */
export interface BatchDocumentRow {
  id: string;
  title: string;
  status: DocumentStatus;
  failureReason: string | null;
}

@Injectable()
export class KnowledgeBatchRepository {
  constructor(
    private readonly db: DataSource,
    private readonly outbox: Outbox,
  ) {}

  /**
   * Inserts the batch and all its documents (processing) in one transaction; false when that id or
   * idempotency key already exists (nothing is written then).
   */
  async insert(orgId: string, batch: NewKnowledgeBatch, documents: Omit<NewKnowledgeDocument, 'knowledgeBaseId'>[]): Promise<boolean> {
    return this.db.transaction(async (manager) => {
      const inserted = returnedRows(
        (await manager.query(
          `INSERT INTO knowledge_batches (id, org_id, status, document_count, idempotency_key, request_hash, created_at, updated_at)
           VALUES ($1, $2, 'processing', $3, $4, $5, $6, $6) ON CONFLICT DO NOTHING RETURNING id`,
          [batch.id, orgId, documents.length, batch.idempotencyKey, batch.requestHash, batch.createdAt],
        )) as unknown[],
      );
      if (inserted.length === 0) return false;
      await manager.query(
        `INSERT INTO knowledge_documents
           (id, org_id, knowledge_base_id, batch_id, batch_index, title, content, metadata, status, chunk_count, created_at, updated_at,
            file_name, file_type, file_size, file_key, text_extracted)
         SELECT d.id, $1, $12, $2, d.batch_index - 1, d.title, d.content, d.metadata, 'processing', 0, $3, $3,
                d.file_name, d.file_type, d.file_size, d.file_key, d.file_key IS NULL
           FROM unnest($4::uuid[], $5::text[], $6::text[], $7::jsonb[], $8::text[], $9::text[], $10::bigint[], $11::text[])
                WITH ORDINALITY AS d(id, title, content, metadata, file_name, file_type, file_size, file_key, batch_index)`,
        [
          orgId,
          batch.id,
          batch.createdAt,
          documents.map((d) => d.id),
          documents.map((d) => d.title),
          documents.map((d) => d.content),
          documents.map((d) => JSON.stringify(d.metadata)),
          documents.map((d) => d.fileName ?? null),
          documents.map((d) => d.fileType ?? null),
          documents.map((d) => d.fileSize ?? null),
          documents.map((d) => d.fileKey ?? null),
          batch.knowledgeBaseId,
        ],
      );
      return true;
    });
  }

  findById(orgId: string, batchId: string): Promise<KnowledgeBatch | null> {
    return this.db.getRepository(KnowledgeBatch).findOneBy({ id: batchId, orgId });
  }

  findByIdempotencyKey(orgId: string, idempotencyKey: string): Promise<KnowledgeBatch | null> {
    return this.db.getRepository(KnowledgeBatch).findOneBy({ orgId, idempotencyKey });
  }

  /** The batch's documents still in it (deleted ones are gone), oldest first. */
  async documents(orgId: string, batchId: string): Promise<BatchDocumentRow[]> {
    const rows = (await this.db.query(
      `SELECT id, title, status, failure_reason FROM knowledge_documents WHERE org_id = $1 AND batch_id = $2 ORDER BY batch_index`,
      [orgId, batchId],
    )) as Array<{ id: string; title: string; status: DocumentStatus; failure_reason: string | null }>;
    return rows.map((row) => ({ id: row.id, title: row.title, status: row.status, failureReason: row.failure_reason }));
  }

  /** The batch's documents that come from files, and which do (the ingestion workflow's input). */
  async ingestionInputs(orgId: string, batchId: string): Promise<Array<{ docId: string; fromFile: boolean }>> {
    const rows = (await this.db.query(
      `SELECT id, file_key IS NOT NULL AS from_file FROM knowledge_documents WHERE org_id = $1 AND batch_id = $2 ORDER BY batch_index`,
      [orgId, batchId],
    )) as Array<{ id: string; from_file: boolean }>;
    return rows.map((row) => ({ docId: row.id, fromFile: row.from_file }));
  }

  /** The stored originals of the batch's documents (null for a text document). */
  async fileKeys(orgId: string, batchId: string): Promise<Array<string | null>> {
    const rows = (await this.db.query(`SELECT file_key FROM knowledge_documents WHERE org_id = $1 AND batch_id = $2`, [orgId, batchId])) as Array<{
      file_key: string | null;
    }>;
    return rows.map((row) => row.file_key);
  }

  /** Deletes the batch and its documents in one transaction; the keys of their stored originals. */
  async delete(orgId: string, batchId: string): Promise<string[]> {
    return this.db.transaction(async (manager) => {
      const deleted = returnedRows<{ file_key: string | null }>(
        await manager.query(`DELETE FROM knowledge_documents WHERE org_id = $1 AND batch_id = $2 RETURNING file_key`, [orgId, batchId]),
      );
      await manager.query(`DELETE FROM knowledge_batches WHERE org_id = $1 AND id = $2`, [orgId, batchId]);
      return deleted.flatMap((row) => (row.file_key ? [row.file_key] : []));
    });
  }

  /** processing → completed (or cancelled); false when the batch had already ended. */
  async finish(orgId: string, batchId: string, status: 'completed' | 'cancelled'): Promise<boolean> {
    const updated = (await this.db.query(
      `UPDATE knowledge_batches SET status = $3, ${TOUCH_UPDATED_AT} WHERE id = $1 AND org_id = $2 AND status = 'processing' RETURNING id`,
      [batchId, orgId, status],
    )) as unknown[];
    return returnedRows(updated).length > 0;
  }

  /**
   * Fails the given documents of the batch that are still processing, each with its event, in one
   * transaction; the ids of the events to announce.
   */
  async failDocuments(
    orgId: string,
    batchId: string,
    docIds: string[],
    reason: string,
    describe: EventFactory<KnowledgeDocument>,
  ): Promise<string[]> {
    if (docIds.length === 0) return [];
    return this.db.transaction(async (manager) => {
      const failed = (await manager.query(
        `UPDATE knowledge_documents SET status = 'failed', failure_reason = $4, ${TOUCH_UPDATED_AT}
          WHERE org_id = $1 AND batch_id = $2 AND id = ANY($3::uuid[]) AND status = 'processing'
          RETURNING id`,
        [orgId, batchId, docIds, reason],
      )) as unknown[];
      const eventIds: string[] = [];
      for (const { id } of returnedRows<{ id: string }>(failed)) {
        const eventId = await this.outbox.recordChange(manager, orgId, id, async (event) =>
          event.record(describe((await manager.findOneBy(KnowledgeDocument, { id, orgId }))!)),
        );
        if (eventId) eventIds.push(eventId);
      }
      return eventIds;
    });
  }
}
