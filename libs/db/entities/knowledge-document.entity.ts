import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { DocumentStatus } from '@pylon/contracts';

@Entity({ name: 'knowledge_documents' })
export class KnowledgeDocument {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'org_id' })
  orgId!: string;

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

  @Column('text', { name: 'idempotency_key', nullable: true })
  idempotencyKey!: string | null;

  @Column('text', { name: 'request_hash', nullable: true })
  requestHash!: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt!: Date;
}
