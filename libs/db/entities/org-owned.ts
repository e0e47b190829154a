import { Column, PrimaryColumn } from 'typeorm';

/** A row an organisation owns: its id, and its organisation, which every read of tenant data filters by. */
export abstract class OrgOwned {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'org_id' })
  orgId!: string;
}

/** A resource a create makes once per Idempotency-Key: the key and the fingerprint of the request that made it, and when. */
export abstract class CreatedOnce extends OrgOwned {
  @Column('text', { name: 'idempotency_key', nullable: true })
  idempotencyKey!: string | null;

  /** SHA-256 of the create request, to tell a retry from a different request under the same key. */
  @Column('text', { name: 'request_hash', nullable: true })
  requestHash!: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;
}

/** A resource created once that changes afterwards. */
export abstract class ChangingResource extends CreatedOnce {
  @Column('timestamptz', { name: 'updated_at' })
  updatedAt!: Date;
}
