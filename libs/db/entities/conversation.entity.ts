import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A conversation: its runs are its turns, its items what the model saw and said. */
@Entity({ name: 'conversations' })
export class Conversation {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'org_id' })
  orgId!: string;

  @Column('jsonb')
  metadata!: Record<string, unknown>;

  /** How many turns were accepted; the next turn is numbered one more. */
  @Column('integer')
  turns!: number;

  @Column('text', { name: 'idempotency_key', nullable: true })
  idempotencyKey!: string | null;

  @Column('text', { name: 'request_hash', nullable: true })
  requestHash!: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;
}
