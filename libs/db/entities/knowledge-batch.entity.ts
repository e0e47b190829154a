import { Column, Entity } from 'typeorm';
import { ChangingResource } from './org-owned';
import type { KnowledgeBatchStatus } from '@pylon/contracts';

/** Documents accepted together, ingested by one parent workflow. */
@Entity({ name: 'knowledge_batches' })
export class KnowledgeBatch extends ChangingResource {
  @Column('text')
  status!: KnowledgeBatchStatus;

  @Column('integer', { name: 'document_count' })
  documentCount!: number;
}
