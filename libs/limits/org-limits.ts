import type { OrgLimits } from '@pylon/db';

/** An organisation's caps and its share of dispatch. */
export interface OrgLimitValues {
  webhookEndpoints: number;
  testEventsPerMinute: number;
  inflightDeliveriesPerEndpoint: number;
  /** Its share of the workers while other organisations have work waiting too (1 by default). */
  dispatchWeight: number;
  /** Runs it may have queued (accepted, not yet started) at once. */
  queuedRuns: number;
  /** Documents it may have processing at once. */
  queuedDocuments: number;
}

export type OrgLimitOverrides = { [K in keyof OrgLimitValues]: number | null };

/** What applies to an organisation, and which values are its own rather than the configured defaults. */
export interface EffectiveOrgLimits {
  orgId: string;
  effective: OrgLimitValues;
  overrides: OrgLimitOverrides;
  updatedAt: Date | null;
}

const FIELDS = [
  'webhookEndpoints',
  'testEventsPerMinute',
  'inflightDeliveriesPerEndpoint',
  'dispatchWeight',
  'queuedRuns',
  'queuedDocuments',
] as const;

export function effectiveOrgLimits(orgId: string, defaults: OrgLimitValues, row: OrgLimits | null): EffectiveOrgLimits {
  const overrides = Object.fromEntries(FIELDS.map((field) => [field, row?.[field] ?? null])) as OrgLimitOverrides;
  const effective = Object.fromEntries(FIELDS.map((field) => [field, overrides[field] ?? defaults[field]])) as unknown as OrgLimitValues;
  return { orgId, effective, overrides, updatedAt: row?.updatedAt ?? null };
}
