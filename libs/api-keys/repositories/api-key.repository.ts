import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiKey, Page, PageRequest, paginate } from '@pylon/db';

/** The columns of a key's own rate limit, by field. */
const RATE_LIMIT_COLUMNS = { rateLimitPerSecond: 'rate_limit_per_second', rateLimitBurst: 'rate_limit_burst' } as const;

@Injectable()
export class ApiKeyRepository {
  constructor(private readonly db: DataSource) {}

  private get keys() {
    return this.db.getRepository(ApiKey);
  }

  insert(key: ApiKey): Promise<ApiKey> {
    return this.keys.save(key);
  }

  /** The authentication entry point: the org is not known until the key is found. */
  findByLookupId(lookupId: string): Promise<ApiKey | null> {
    return this.keys.findOneBy({ lookupId });
  }

  /** The organisation of a key, for the operator's routes, which name a key by its id alone. */
  async orgOfKey(keyId: string): Promise<string | null> {
    return (await this.keys.findOne({ select: { orgId: true }, where: { id: keyId } }))?.orgId ?? null;
  }

  /** A key of this organisation, or null (another organisation's key is not found). */
  findInOrg(orgId: string, keyId: string): Promise<ApiKey | null> {
    return this.keys.findOneBy({ id: keyId, orgId });
  }

  listForOrg(orgId: string, page: PageRequest): Promise<Page<ApiKey>> {
    return paginate(this.keys.createQueryBuilder('key').where('key.org_id = :orgId', { orgId }), page);
  }

  /** Whether the key was revoked now (false: unknown, another organisation's, or revoked before). */
  async revoke(orgId: string, keyId: string): Promise<boolean> {
    const result = await this.keys
      .createQueryBuilder()
      .update()
      .set({ revokedAt: () => 'now()' })
      .where('id = :keyId AND org_id = :orgId AND revoked_at IS NULL', { keyId, orgId })
      .execute();
    return !!result.affected;
  }

  /** Replaces the secret; the old one stays valid until `previousSecretExpiresAt`. */
  async roll(orgId: string, keyId: string, secretHash: string, previousSecretExpiresAt: Date): Promise<ApiKey | null> {
    const result = await this.keys
      .createQueryBuilder()
      .update()
      .set({
        previousSecretHash: () => 'secret_hash',
        previousSecretExpiresAt,
        secretHash,
      })
      .where('id = :keyId AND org_id = :orgId AND revoked_at IS NULL', { keyId, orgId })
      .execute();
    return result.affected ? this.findInOrg(orgId, keyId) : null;
  }

  /**
   * Sets the key's own rate limit: a number, null (back to the default), or absent (unchanged). Whether a value
   * changed (an unrevoked key of this organisation whose limit was another); the same limit again writes nothing.
   */
  async setRateLimit(orgId: string, keyId: string, changes: Partial<Pick<ApiKey, 'rateLimitPerSecond' | 'rateLimitBurst'>>): Promise<boolean> {
    const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const differs = Object.keys(set).map((field) => `${RATE_LIMIT_COLUMNS[field as keyof typeof RATE_LIMIT_COLUMNS]} IS DISTINCT FROM :${field}`);
    if (differs.length === 0) return false;
    const result = await this.keys
      .createQueryBuilder()
      .update()
      .set(set)
      .where('id = :keyId AND org_id = :orgId AND revoked_at IS NULL', { keyId, orgId })
      .andWhere(`(${differs.join(' OR ')})`, set)
      .execute();
    return !!result.affected;
  }

  /** Records use at most once per `debounceSeconds`, so a busy key does not write on every request. */
  async touchLastUsed(orgId: string, keyId: string, debounceSeconds: number): Promise<void> {
    await this.db.query(
      `UPDATE api_keys SET last_used_at = now()
        WHERE id = $1 AND org_id = $2 AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $3))`,
      [keyId, orgId, debounceSeconds],
    );
  }
}
