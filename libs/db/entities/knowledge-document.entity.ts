import { Column, Entity } from 'typeorm';
import { ChangingResource } from './org-owned';
import type { DocumentFileType, DocumentStatus } from '@pylon/contracts';

@Entity({ name: 'knowledge_documents' })
export class KnowledgeDocument extends ChangingResource {
  @Column('uuid', { name: 'knowledge_base_id' })
  knowledgeBaseId!: string;

  @Column('text')
  title!: string;

  @Column('text')
  content!: string;

  @Column('jsonb')
  metadata!: Record<string, unknown>;

  @Column('text')
  status!: DocumentStatus;

  @Column('text', { name: 'failure_reason', nullable: true })
  failureReason!: string | null;

  @Column('integer', { name: 'chunk_count' })
  chunkCount!: number;

  /** The latest accepted revision (1 at create); status and failure_reason describe it. */
  @Column('integer')
  revision!: number;

  /** The revision whose chunks search serves; null until one is ready. */
  @Column('integer', { name: 'ready_revision', nullable: true })
  readyRevision!: number | null;

  /** The uploaded original, for a document made from a file; all null for one made from text. */
  @Column('text', { name: 'file_name', nullable: true })
  fileName!: string | null;

  @Column('text', { name: 'file_type', nullable: true })
  fileType!: DocumentFileType | null;

  @Column('bigint', {
    name: 'file_size',
    nullable: true,
    transformer: { to: (v: number | null) => v, from: (v: string | null) => (v === null ? null : Number(v)) },
  })
  fileSize!: number | null;

  /** Where the original is in the media store. */
  @Column('text', { name: 'file_key', nullable: true })
  fileKey!: string | null;

  /** False while a file's text is still to be extracted into `content`. */
  @Column('boolean', { name: 'text_extracted' })
  textExtracted!: boolean;

  /** Where each page begins in `content` (PDF): pageStarts[i] is the offset of page i + 1. */
  @Column('integer', { name: 'page_starts', array: true, nullable: true })
  pageStarts!: number[] | null;

  /** The batch the document came in with, if any. */
  @Column('uuid', { name: 'batch_id', nullable: true })
  batchId!: string | null;
}
