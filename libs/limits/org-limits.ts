import type { OrgLimits } from '@pylon/db';

/** An organisation's caps. */
export interface OrgLimitValues {
  webhookEndpoints: number;
  testEventsPerMinute: number;
  inflightDeliveriesPerEndpoint: number;
  agentRunsPerSecond: number;
}

export type OrgLimitOverrides = { [K in keyof OrgLimitValues]: number | null };

/** What applies to an organisation, and which values are its own rather than the configured defaults. */
export interface EffectiveOrgLimits {
  orgId: string;
  effective: OrgLimitValues;
  overrides: OrgLimitOverrides;
  updatedAt: Date | null;
}

export function effectiveOrgLimits(orgId: string, defaults: OrgLimitValues, row: OrgLimits | null): EffectiveOrgLimits {
  const overrides: OrgLimitOverrides = {
    webhookEndpoints: row?.webhookEndpoints ?? null,
    testEventsPerMinute: row?.testEventsPerMinute ?? null,
    inflightDeliveriesPerEndpoint: row?.inflightDeliveriesPerEndpoint ?? null,
    agentRunsPerSecond: row?.agentRunsPerSecond ?? null,
  };
  return {
    orgId,
    effective: {
      webhookEndpoints: overrides.webhookEndpoints ?? defaults.webhookEndpoints,
      testEventsPerMinute: overrides.testEventsPerMinute ?? defaults.testEventsPerMinute,
      inflightDeliveriesPerEndpoint: overrides.inflightDeliveriesPerEndpoint ?? defaults.inflightDeliveriesPerEndpoint,
      agentRunsPerSecond: overrides.agentRunsPerSecond ?? defaults.agentRunsPerSecond,
    },
    overrides,
    updatedAt: row?.updatedAt ?? null,
  };
}
