import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { DeliveryStatus } from '@pylon/contracts';

@Entity({ name: 'webhook_endpoints' })
export class WebhookEndpoint {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'org_id' }) orgId!: string;
  @Column('text') url!: string;
  @Column('text', { nullable: true }) description!: string | null;
  /** null: every event type. */
  @Column('text', { array: true, nullable: true }) events!: string[] | null;
  @Column('boolean') enabled!: boolean;
  @Column('text', { name: 'disabled_reason', nullable: true }) disabledReason!: string | null;
  /** `whsec_…`; kept readable because HMAC signing needs it. */
  @Column('text') secret!: string;
  /** After a rotation, the old secret also signs until `previousSecretExpiresAt`. */
  @Column('text', { name: 'previous_secret', nullable: true }) previousSecret!: string | null;
  @Column('timestamptz', { name: 'previous_secret_expires_at', nullable: true }) previousSecretExpiresAt!: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
  @Column('text', { name: 'idempotency_key', nullable: true }) idempotencyKey!: string | null;
  @Column('text', { name: 'request_hash', nullable: true }) requestHash!: string | null;
}

@Entity({ name: 'webhook_deliveries' })
export class WebhookDelivery {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'org_id' }) orgId!: string;
  @Column('uuid', { name: 'endpoint_id' }) endpointId!: string;
  @Column('uuid', { name: 'event_id' }) eventId!: string;
  @Column('text', { name: 'event_type' }) eventType!: string;
  @Column('text') status!: DeliveryStatus;
  @Column('integer', { name: 'attempt_count' }) attemptCount!: number;
  @Column('timestamptz', { name: 'next_attempt_at', nullable: true }) nextAttemptAt!: Date | null;
  @Column('integer', { name: 'last_status_code', nullable: true }) lastStatusCode!: number | null;
  @Column('text', { name: 'last_error', nullable: true }) lastError!: string | null;
  @Column('timestamptz', { name: 'delivered_at', nullable: true }) deliveredAt!: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
}

@Entity({ name: 'webhook_attempts' })
export class WebhookAttempt {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'org_id' }) orgId!: string;
  @Column('uuid', { name: 'delivery_id' }) deliveryId!: string;
  @Column('integer', { name: 'attempt_number' }) attemptNumber!: number;
  @Column('timestamptz', { name: 'started_at' }) startedAt!: Date;
  @Column('integer', { name: 'duration_ms' }) durationMs!: number;
  @Column('integer', { name: 'status_code', nullable: true }) statusCode!: number | null;
  @Column('text', { name: 'response_excerpt', nullable: true }) responseExcerpt!: string | null;
  @Column('text', { nullable: true }) error!: string | null;
  /** The headers this attempt sent, signature included; null before they were recorded, or when no request was made. */
  @Column('jsonb', { name: 'request_headers', nullable: true }) requestHeaders!: Record<string, string> | null;
  /** The receiver's answer's headers, bounded; null without an answer, or before they were recorded. */
  @Column('jsonb', { name: 'response_headers', nullable: true }) responseHeaders!: Record<string, string> | null;
}
