import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'agents' })
export class Agent {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'org_id' })
  orgId!: string;

  @Column('text')
  name!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column('text', { name: 'idempotency_key', nullable: true })
  idempotencyKey!: string | null;

  @Column('text', { name: 'request_hash', nullable: true })
  requestHash!: string | null;
}
