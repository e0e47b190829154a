import type { ApiKey, Organization } from '@pylon/db';
import type { ApiKeyView, IssuedApiKeyView } from './dto/create-api-key.dto';
import type { OrgView } from './dto/create-org.dto';

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
    created_at: key.createdAt.toISOString(),
  };
}

export function toIssuedApiKeyView(key: ApiKey, secret: string): IssuedApiKeyView {
  return { ...toApiKeyView(key), api_key: secret };
}

