import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'api_keys' })
export class ApiKey {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'org_id' })
  orgId!: string;

  @Column('text')
  name!: string;

  /** The public part of the key that finds this row. */
  @Column('text', { name: 'lookup_id', unique: true })
  lookupId!: string;

  /** Hex SHA-256 of the whole key. */
  @Column('text', { name: 'secret_hash' })
  secretHash!: string;

  /** After a roll, the previous key keeps working until `previousSecretExpiresAt`. */
  @Column('text', { name: 'previous_secret_hash', nullable: true })
  previousSecretHash!: string | null;

  @Column('timestamptz', { name: 'previous_secret_expires_at', nullable: true })
  previousSecretExpiresAt!: Date | null;

  @Column('text', { array: true })
  scopes!: string[];

  /** A recognisable beginning of the key (`pyl_` and some lookup characters), safe to show. */
  @Column('text')
  hint!: string;

  @Column('timestamptz', { name: 'expires_at', nullable: true })
  expiresAt!: Date | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt!: Date | null;

  @Column('timestamptz', { name: 'last_used_at', nullable: true })
  lastUsedAt!: Date | null;

  /** The key's own rate limit; null: RATE_LIMIT_PER_SECOND / RATE_LIMIT_BURST. */
  @Column('integer', { name: 'rate_limit_per_second', nullable: true })
  rateLimitPerSecond!: number | null;

  @Column('integer', { name: 'rate_limit_burst', nullable: true })
  rateLimitBurst!: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
