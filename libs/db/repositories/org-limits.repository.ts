import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OrgLimits } from '../entities';

/** Overrides to set: a number, null (back to the default), or absent (unchanged). */
export type OrgLimitChanges = Partial<Pick<OrgLimits, 'webhookEndpoints' | 'testEventsPerMinute' | 'inflightDeliveriesPerEndpoint' | 'agentRunsPerSecond'>>;

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
    const value = (field: keyof OrgLimitChanges) => changes[field] ?? null;
    const given = (field: keyof OrgLimitChanges) => changes[field] !== undefined;
    await this.db.query(
      `INSERT INTO org_limits (org_id, webhook_endpoints, test_events_per_minute, inflight_deliveries_per_endpoint, agent_runs_per_second, updated_at)
       VALUES ($1, $2, $3, $4, $8, clock_timestamp())
       ON CONFLICT (org_id) DO UPDATE SET
         webhook_endpoints = CASE WHEN $5 THEN EXCLUDED.webhook_endpoints ELSE org_limits.webhook_endpoints END,
         test_events_per_minute = CASE WHEN $6 THEN EXCLUDED.test_events_per_minute ELSE org_limits.test_events_per_minute END,
         inflight_deliveries_per_endpoint = CASE WHEN $7 THEN EXCLUDED.inflight_deliveries_per_endpoint ELSE org_limits.inflight_deliveries_per_endpoint END,
         agent_runs_per_second = CASE WHEN $9 THEN EXCLUDED.agent_runs_per_second ELSE org_limits.agent_runs_per_second END,
         updated_at = GREATEST(clock_timestamp(), org_limits.updated_at + interval '1 millisecond')`,
      [
        orgId,
        value('webhookEndpoints'),
        value('testEventsPerMinute'),
        value('inflightDeliveriesPerEndpoint'),
        given('webhookEndpoints'),
        given('testEventsPerMinute'),
        given('inflightDeliveriesPerEndpoint'),
        value('agentRunsPerSecond'),
        given('agentRunsPerSecond'),
      ],
    );
    return (await this.find(orgId))!;
  }
}
