import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OrgLimits } from '@pylon/db';

const OVERRIDES = {
  webhookEndpoints: 'webhook_endpoints',
  testEventsPerMinute: 'test_events_per_minute',
  inflightDeliveriesPerEndpoint: 'inflight_deliveries_per_endpoint',
  dispatchWeight: 'dispatch_weight',
  queuedRuns: 'queued_runs',
  queuedDocuments: 'queued_documents',
} as const satisfies Partial<Record<keyof OrgLimits, string>>;

/** Overrides to set: a number, null (back to the default), or absent (unchanged). */
export type OrgLimitChanges = Partial<Pick<OrgLimits, keyof typeof OVERRIDES>>;

@Injectable()
export class OrgLimitsRepository {
  constructor(private readonly db: DataSource) {}

  /** The organisation's overrides, or null when it has none recorded. */
  find(orgId: string): Promise<OrgLimits | null> {
    return this.db.getRepository(OrgLimits).findOneBy({ orgId });
  }

  /**
   * Sets the given overrides and leaves the others as they are, creating the row on first use.
   * (`updated_at` is qualified here: inside ON CONFLICT a bare name would be ambiguous with EXCLUDED's.)
   */
  async update(orgId: string, changes: OrgLimitChanges): Promise<OrgLimits> {
    const given = (Object.keys(OVERRIDES) as (keyof typeof OVERRIDES)[]).filter((field) => changes[field] !== undefined);
    const columns = given.map((field) => OVERRIDES[field]);
    await this.db.query(
      `INSERT INTO org_limits (org_id, ${columns.map((column) => `${column}, `).join('')}updated_at)
       VALUES ($1, ${given.map((_, i) => `$${i + 2}, `).join('')}clock_timestamp())
       ON CONFLICT (org_id) DO UPDATE SET
         ${columns.map((column) => `${column} = EXCLUDED.${column}, `).join('')}
         updated_at = GREATEST(clock_timestamp(), org_limits.updated_at + interval '1 millisecond')`,
      [orgId, ...given.map((field) => changes[field] ?? null)],
    );
    return (await this.find(orgId))!;
  }
}
