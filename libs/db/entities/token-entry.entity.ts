import { Column, Entity, PrimaryColumn } from 'typeorm';

export type TokenEntryKind = 'grant' | 'debit' | 'refund';

const bigintAsNumber = { to: (value: number) => value, from: (value: string | null) => (value === null ? null : Number(value)) };

/** One line of an organisation's token ledger. Append-only: a trigger refuses updates and deletes. */
@Entity({ name: 'token_entries' })
export class TokenEntry {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'org_id' })
  orgId!: string;

  @Column('text')
  kind!: TokenEntryKind;

  @Column('bigint', { transformer: bigintAsNumber })
  amount!: number;

  /** +amount for grants and refunds, −amount for debits: the entries of an org sum to its balance. */
  @Column('bigint', { transformer: bigintAsNumber })
  delta!: number;

  @Column('bigint', { name: 'balance_after', transformer: bigintAsNumber })
  balanceAfter!: number;

  @Column('text', { name: 'reference_type', nullable: true })
  referenceType!: string | null;

  @Column('uuid', { name: 'reference_id', nullable: true })
  referenceId!: string | null;

  @Column('uuid', { name: 'refund_of', nullable: true })
  refundOf!: string | null;

  @Column('text', { name: 'idempotency_key', nullable: true })
  idempotencyKey!: string | null;

  @Column('text', { nullable: true })
  reason!: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;
}
