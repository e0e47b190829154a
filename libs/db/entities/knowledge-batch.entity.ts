import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { KnowledgeBatchStatus } from '@pylon/contracts';

/** Documents accepted together, ingested by one parent workflow. */
@Entity({ name: 'knowledge_batches' })
export class KnowledgeBatch {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'org_id' })
  orgId!: string;

  @Column('text')
  status!: KnowledgeBatchStatus;

  @Column('integer', { name: 'document_count' })
  documentCount!: number;

  @Column('text', { name: 'idempotency_key', nullable: true })
  idempotencyKey!: string | null;

  @Column('text', { name: 'request_hash', nullable: true })
  requestHash!: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt!: Date;
}
