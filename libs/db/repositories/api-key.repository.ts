import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiKey } from '../entities';
import { Page, PageRequest, paginate } from '../pagination';

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

  findById(keyId: string): Promise<ApiKey | null> {
    return this.keys.findOneBy({ id: keyId });
  }

  /** A key of this organisation, or null (another organisation's key is not found). */
  findInOrg(orgId: string, keyId: string): Promise<ApiKey | null> {
    return this.keys.findOneBy({ id: keyId, orgId });
  }

  listForOrg(orgId: string, page: PageRequest): Promise<Page<ApiKey>> {
    return paginate(this.keys.createQueryBuilder('key').where('key.org_id = :orgId', { orgId }), page);
  }

  async revoke(keyId: string): Promise<ApiKey | null> {
    await this.keys
      .createQueryBuilder()
      .update()
      .set({ revokedAt: () => 'now()' })
      .where('id = :keyId AND revoked_at IS NULL', { keyId })
      .execute();
    return this.findById(keyId);
  }

  /** Replaces the secret; the old one stays valid until `previousSecretExpiresAt`. */
  async roll(keyId: string, secretHash: string, previousSecretExpiresAt: Date): Promise<ApiKey | null> {
    const result = await this.keys
      .createQueryBuilder()
      .update()
      .set({
        previousSecretHash: () => 'secret_hash',
        previousSecretExpiresAt,
        secretHash,
      })
      .where('id = :keyId AND revoked_at IS NULL', { keyId })
      .execute();
    return result.affected ? this.findById(keyId) : null;
  }

  /** Sets the key's own rate limit: a number, null (back to the default), or absent (unchanged). */
  async setRateLimit(keyId: string, changes: Partial<Pick<ApiKey, 'rateLimitPerSecond' | 'rateLimitBurst'>>): Promise<ApiKey | null> {
    const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    if (Object.keys(set).length > 0) await this.keys.update({ id: keyId }, set);
    return this.findById(keyId);
  }

  /** Records use at most once per `debounceSeconds`, so a busy key does not write on every request. */
  async touchLastUsed(keyId: string, debounceSeconds: number): Promise<void> {
    await this.db.query(
      `UPDATE api_keys SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2))`,
      [keyId, debounceSeconds],
    );
  }
}
