import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { PylonError, ErrorCode, grantsScope, type Scope } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { ApiKey, type Page, type PageRequest } from '@pylon/db';
import { ApiKeyChanges } from './repositories/api-key-changes';
import { ApiKeyRepository } from './repositories/api-key.repository';
import { generateApiKey, hashApiKey, hashesMatch, parseApiKey } from './api-key-codec';
import type { Principal } from './principal';
import { ApiKeyUsageCounter } from './api-key-usage-counter';

/**
 * A key this process verified, by the hash of the secret presented. The current secret matches for as long as
 * the entry is kept, so its principal is built once; a previous secret's grace period ends, so it is matched on
 * each request.
 */
interface VerifiedKey {
  key: ApiKey;
  at: number;
  withCurrentSecret: Principal | null;
}

/** Frozen: a cached principal is handed to every request of its key. */
function toPrincipal(key: ApiKey, matched: 'current' | 'previous'): Principal {
  return Object.freeze({
    orgId: key.orgId,
    keyId: key.id,
    scopes: key.scopes,
    rateLimit: Object.freeze({ perSecond: key.rateLimitPerSecond, burst: key.rateLimitBurst }),
    withPreviousSecret: matched === 'previous',
  });
}

/**
 * A rolled key's previous secret still works for its grace period, so that clients can move over, but it
 * cannot create, roll or revoke keys: otherwise whoever holds a leaked secret could roll the key again
 * and lock its owner out, and rotating after a leak would not contain it.
 */
function assertCurrentSecret(caller: Principal): void {
  if (caller.withPreviousSecret) {
    throw PylonError.insufficientScope(
      "this is the key's previous secret, accepted during the grace period after a roll; only the current secret (or the admin API) may create, roll or revoke keys",
    );
  }
}

export interface IssuedApiKey {
  apiKey: ApiKey;
  /** The plaintext key, shown to its owner once and never stored. */
  secret: string;
}

/** Issues, verifies, rolls and revokes organisation API keys. */
@Injectable()
export class ApiKeyService {
  private readonly logger = new Logger(ApiKeyService.name);
  /** Key ids touched recently by this process, so `last_used_at` is written at most once per debounce window. */
  private readonly recentlyTouched = new Map<string, number>();
  /**
   * Keys this process looked up lately, by the hash of the presented key, for API_KEY_CACHE_SECONDS, trusted
   * only while the process hears every change to a key (ApiKeyChanges): a key revoked, rolled or limited
   * through any API replica is forgotten by all of them at once. Expiry is still checked on every request.
   */
  private readonly verified = new Map<string, VerifiedKey>();

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly config: PylonConfig,
    private readonly changes: ApiKeyChanges,
    private readonly usage: ApiKeyUsageCounter,
  ) {
    changes.onChange((keyId) => (keyId === 'all' ? this.verified.clear() : this.forget(keyId)));
  }

  /** A new key and its secret (shown once); an expiry must lie in the future. */
  async issue(orgId: string, name: string, scopes: Scope[], expiresAt: Date | null): Promise<IssuedApiKey> {
    if (expiresAt && expiresAt.getTime() <= Date.now()) throw PylonError.invalidRequest('expires_at must be in the future');
    const secret = generateApiKey();
    const apiKey = await this.keys.insert(
      Object.assign(new ApiKey(), {
        id: randomUUID(),
        orgId,
        name,
        lookupId: secret.lookupId,
        secretHash: secret.hash,
        previousSecretHash: null,
        previousSecretExpiresAt: null,
        scopes: [...new Set(scopes)],
        hint: secret.hint,
        expiresAt,
        revokedAt: null,
        lastUsedAt: null,
        rateLimitPerSecond: null,
        rateLimitBurst: null,
        createdAt: new Date(),
      }),
    );
    return { apiKey, secret: secret.key };
  }

  /**
   * An organisation's own key management (scope `keys:manage`): a key is created in the caller's
   * organisation with at most the caller's scopes (`*` only by a `*` key), and only the organisation's
   * keys can be listed, rolled or revoked; another organisation's key is not found.
   */
  issueByKey(creator: Principal, name: string, scopes: Scope[], expiresAt: Date | null): Promise<IssuedApiKey> {
    assertCurrentSecret(creator);
    const beyond = scopes.filter((scope) => !(scope === '*' ? creator.scopes.includes('*') : grantsScope(creator.scopes, scope)));
    if (beyond.length > 0) {
      throw new PylonError(ErrorCode.InsufficientScope, `a key cannot grant scopes its creator lacks: ${[...new Set(beyond)].join(', ')}`);
    }
    return this.issue(creator.orgId, name, scopes, expiresAt);
  }

  async rollInOrg(caller: Principal, keyId: string, graceSeconds?: number): Promise<IssuedApiKey> {
    assertCurrentSecret(caller);
    const rolled = await this.roll(caller.orgId, keyId, graceSeconds);
    if (!rolled) throw PylonError.notFound('no such active API key');
    return rolled;
  }

  async revokeInOrg(caller: Principal, keyId: string): Promise<ApiKey> {
    assertCurrentSecret(caller);
    const revoked = await this.revoke(caller.orgId, keyId);
    if (!revoked) throw PylonError.notFound('no such API key');
    return revoked;
  }

  /** Issues a new secret for the same key; the old secret keeps working for `graceSeconds`. */
  async roll(orgId: string, keyId: string, graceSeconds = this.config.apiKeyRollGraceSeconds): Promise<IssuedApiKey | null> {
    const existing = await this.keys.findInOrg(orgId, keyId);
    if (!existing || existing.revokedAt) return null;
    const secret = generateApiKey(existing.lookupId);
    const apiKey = await this.changes.heardAfter(keyId, () => this.keys.roll(orgId, keyId, secret.hash, new Date(Date.now() + graceSeconds * 1000)));
    this.forget(keyId);
    return apiKey ? { apiKey, secret: secret.key } : null;
  }

  /**
   * The principal of a presented key, or 401 `invalid_api_key` for unknown, malformed, revoked or expired keys.
   * A key this process verified lately is answered at once (no promise: every request passes here); any
   * other is read from the database.
   */
  authenticate(presented: string): Principal | Promise<Principal> {
    const presentedHash = hashApiKey(presented);
    const cached = this.recentlyVerified(presentedHash);
    if (cached) return cached.withCurrentSecret ? this.admitted(cached.key, cached.withCurrentSecret) : this.principalOf(cached.key, presentedHash);
    return this.lookUp(presented, presentedHash).then((key) => this.principalOf(key, presentedHash));
  }

  private principalOf(key: ApiKey | null, presentedHash: string): Principal {
    const matched = key && this.matchingSecret(key, presentedHash);
    if (!key || !matched) {
      throw new PylonError(ErrorCode.InvalidApiKey, 'unknown API key');
    }
    return this.admitted(key, toPrincipal(key, matched));
  }

  /** The principal of a key whose secret matched, unless the key is revoked or expired; the use is recorded. */
  private admitted(key: ApiKey, principal: Principal): Principal {
    const now = Date.now();
    if (key.revokedAt) throw new PylonError(ErrorCode.InvalidApiKey, 'API key revoked');
    if (key.expiresAt && key.expiresAt.getTime() <= now) throw new PylonError(ErrorCode.InvalidApiKey, 'API key expired');
    this.touch(key.orgId, key.id, now);
    this.usage.record(key.orgId, key.id, now);
    return principal;
  }

  /** Drops a key from this process's cache, after it was revoked or rolled. */
  forget(keyId: string): void {
    for (const [hash, entry] of this.verified) if (entry.key.id === keyId) this.verified.delete(hash);
  }

  /** The organisation's keys, newest first (no secrets: only their hashes are stored). */
  list(orgId: string, page: PageRequest): Promise<Page<ApiKey>> {
    return this.keys.listForOrg(orgId, page);
  }

  /** A key of this organisation, or null. */
  findInOrg(orgId: string, keyId: string): Promise<ApiKey | null> {
    return this.keys.findInOrg(orgId, keyId);
  }

  /** The organisation of a key, for the operator's routes, which name a key by its id alone. */
  orgOfKey(keyId: string): Promise<string | null> {
    return this.keys.orgOfKey(keyId);
  }

  /** Revokes the key; answers once this process heard the revocation announced, so that every replica refuses it. */
  async revoke(orgId: string, keyId: string): Promise<ApiKey | null> {
    await this.changes.heardAfter(keyId, () => this.keys.revoke(orgId, keyId));
    this.forget(keyId);
    return this.keys.findInOrg(orgId, keyId);
  }

  /** Sets the key's own rate limit (null: back to the default; absent: unchanged); announced to every API process, and answered once this one heard it, like a revocation. */
  async setRateLimit(orgId: string, keyId: string, changes: { perSecond?: number | null; burst?: number | null }): Promise<ApiKey | null> {
    if (changes.perSecond && changes.burst && changes.burst < changes.perSecond) {
      throw PylonError.invalidRequest('rate_limit_burst must be at least rate_limit_per_second');
    }
    await this.changes.heardAfter(keyId, () =>
      this.keys.setRateLimit(orgId, keyId, { rateLimitPerSecond: changes.perSecond, rateLimitBurst: changes.burst }),
    );
    this.forget(keyId);
    const key = await this.keys.findInOrg(orgId, keyId);
    return key && !key.revokedAt ? key : null;
  }

  /** The key verified with this hash within the cache's time, while this process hears of key changes. */
  private recentlyVerified(presentedHash: string): VerifiedKey | undefined {
    const cached = this.verified.get(presentedHash);
    return cached && Date.now() - cached.at < this.cacheTtlMs() ? cached : undefined;
  }

  /** How long a verified key is kept: not at all while this process cannot hear of key changes. */
  private cacheTtlMs(): number {
    return this.changes.hearing() ? this.config.apiKeyCacheSeconds * 1000 : 0;
  }

  private async lookUp(presented: string, presentedHash: string): Promise<ApiKey | null> {
    const ttlMs = this.cacheTtlMs();
    const generation = this.changes.generation;
    const parsed = parseApiKey(presented);
    const key = parsed && (await this.keys.findByLookupId(parsed.lookupId));
    // A change announced while the key was read may not be in what was read: use it once, do not keep it.
    const matched = key && ttlMs > 0 && generation === this.changes.generation ? this.matchingSecret(key, presentedHash) : null;
    if (key && matched) {
      if (this.verified.size >= 10_000) this.verified.clear();
      this.verified.set(presentedHash, { key, at: Date.now(), withCurrentSecret: matched === 'current' ? toPrincipal(key, matched) : null });
    }
    return key;
  }

  authorize(principal: Principal, scope: Scope): void {
    if (!grantsScope(principal.scopes, scope)) {
      throw new PylonError(ErrorCode.InsufficientScope, `this API key lacks the ${scope} scope`);
    }
  }

  /** Which of the key's secrets was presented: its current one, or its previous one within the grace period. */
  private matchingSecret(key: ApiKey, presentedHash: string): 'current' | 'previous' | null {
    if (hashesMatch(key.secretHash, presentedHash)) return 'current';
    const previous =
      !!key.previousSecretHash &&
      !!key.previousSecretExpiresAt &&
      key.previousSecretExpiresAt.getTime() > Date.now() &&
      hashesMatch(key.previousSecretHash, presentedHash);
    return previous ? 'previous' : null;
  }

  private touch(orgId: string, keyId: string, now: number): void {
    const debounceMs = this.config.apiKeyLastUsedDebounceSeconds * 1000;
    const last = this.recentlyTouched.get(keyId);
    if (last !== undefined && now - last < debounceMs) return;
    this.recentlyTouched.set(keyId, now);
    if (this.recentlyTouched.size > 10_000) this.recentlyTouched.clear();
    this.keys
      .touchLastUsed(orgId, keyId, this.config.apiKeyLastUsedDebounceSeconds)
      .catch((error: unknown) => this.logger.warn({ err: error }, `could not record last use of key ${keyId}`));
  }
}
