import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An organisation's overrides of the configured caps; null (or no row) means the default. */
@Entity({ name: 'org_limits' })
export class OrgLimits {
  @PrimaryColumn('uuid', { name: 'org_id' }) orgId!: string;
  @Column('integer', { name: 'webhook_endpoints', nullable: true }) webhookEndpoints!: number | null;
  @Column('integer', { name: 'test_events_per_minute', nullable: true }) testEventsPerMinute!: number | null;
  /** Read by delivery planning too (with the default WEBHOOK_MAX_INFLIGHT_PER_ENDPOINT). */
  @Column('integer', { name: 'inflight_deliveries_per_endpoint', nullable: true }) inflightDeliveriesPerEndpoint!: number | null;
  /** The organisation's share of dispatch when others have work waiting too (Temporal's fairness weight). */
  @Column('real', { name: 'dispatch_weight', nullable: true }) dispatchWeight!: number | null;
  @Column('integer', { name: 'queued_runs', nullable: true }) queuedRuns!: number | null;
  @Column('integer', { name: 'queued_documents', nullable: true }) queuedDocuments!: number | null;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
}
