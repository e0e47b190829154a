import type { ApiKey, Organization } from '@pylon/db';
import type { EffectiveOrgLimits } from '@pylon/limits';
import type { ApiKeyView, IssuedApiKeyView } from './dto/create-api-key.dto';
import type { OrgView } from './dto/create-org.dto';
import type { OrgLimitsView } from './dto/org-limits.dto';

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

export function toOrgView(org: Organization): OrgView {
  return { org_id: org.id, name: org.name, created_at: org.createdAt.toISOString() };
}

export function toApiKeyView(key: ApiKey): ApiKeyView {
  return {
    key_id: key.id,
    org_id: key.orgId,
    name: key.name,
    scopes: key.scopes,
    hint: key.hint,
    expires_at: iso(key.expiresAt),
    revoked_at: iso(key.revokedAt),
    last_used_at: iso(key.lastUsedAt),
    previous_secret_expires_at: iso(key.previousSecretExpiresAt),
    rate_limit_per_second: key.rateLimitPerSecond,
    rate_limit_burst: key.rateLimitBurst,
    created_at: key.createdAt.toISOString(),
  };
}

export function toIssuedApiKeyView(key: ApiKey, secret: string): IssuedApiKeyView {
  return { ...toApiKeyView(key), api_key: secret };
}

export function toOrgLimitsView(limits: EffectiveOrgLimits): OrgLimitsView {
  return {
    org_id: limits.orgId,
    webhook_endpoints: limits.effective.webhookEndpoints,
    test_events_per_minute: limits.effective.testEventsPerMinute,
    inflight_deliveries_per_endpoint: limits.effective.inflightDeliveriesPerEndpoint,
    dispatch_weight: limits.effective.dispatchWeight,
    queued_runs: limits.effective.queuedRuns,
    queued_documents: limits.effective.queuedDocuments,
    overrides: {
      webhook_endpoints: limits.overrides.webhookEndpoints,
      test_events_per_minute: limits.overrides.testEventsPerMinute,
      inflight_deliveries_per_endpoint: limits.overrides.inflightDeliveriesPerEndpoint,
      dispatch_weight: limits.overrides.dispatchWeight,
      queued_runs: limits.overrides.queuedRuns,
      queued_documents: limits.overrides.queuedDocuments,
    },
    updated_at: iso(limits.updatedAt),
  };
}
