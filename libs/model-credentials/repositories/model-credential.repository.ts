import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoTimestamp, returnedRows } from '@pylon/db';

/** An organisation's key for one provider, as stored: sealed, with the hint answers show. */
export interface StoredModelCredential {
  provider: string;
  sealedKey: string;
  keyHint: string;
  createdAt: string;
  updatedAt: string;
}

const COLUMNS = `provider, sealed_key AS "sealedKey", key_hint AS "keyHint",
  ${isoTimestamp('created_at')} AS "createdAt", ${isoTimestamp('updated_at')} AS "updatedAt"`;

/** `model_credentials`: each organisation's own provider keys, sealed. */
@Injectable()
export class ModelCredentialRepository {
  constructor(private readonly db: DataSource) {}

  /** Sets the organisation's key for the provider (replacing one it had: `created_at` is when the first was set). */
  async put(orgId: string, provider: string, sealedKey: string, keyHint: string): Promise<StoredModelCredential> {
    const [row] = await this.db.query(
      `INSERT INTO model_credentials (org_id, provider, sealed_key, key_hint) VALUES ($1, $2, $3, $4)
       ON CONFLICT (org_id, provider) DO UPDATE SET sealed_key = EXCLUDED.sealed_key, key_hint = EXCLUDED.key_hint,
         updated_at = GREATEST(clock_timestamp(), model_credentials.updated_at + interval '1 millisecond')
       RETURNING ${COLUMNS}`,
      [orgId, provider, sealedKey, keyHint],
    );
    return row;
  }

  list(orgId: string): Promise<StoredModelCredential[]> {
    return this.db.query(`SELECT ${COLUMNS} FROM model_credentials WHERE org_id = $1 ORDER BY provider`, [orgId]);
  }

  async find(orgId: string, provider: string): Promise<StoredModelCredential | null> {
    const [row] = await this.db.query(`SELECT ${COLUMNS} FROM model_credentials WHERE org_id = $1 AND provider = $2`, [orgId, provider]);
    return row ?? null;
  }

  /** Whether there was a key to remove. */
  async remove(orgId: string, provider: string): Promise<boolean> {
    const deleted = await this.db.query(`DELETE FROM model_credentials WHERE org_id = $1 AND provider = $2 RETURNING provider`, [orgId, provider]);
    return returnedRows(deleted).length > 0;
  }

  /** Replaces a sealed key by its reseal, only if it is still the one read (a key set meanwhile stays). */
  async reseal(orgId: string, provider: string, was: string, sealedKey: string): Promise<boolean> {
    const updated = await this.db.query(
      `UPDATE model_credentials SET sealed_key = $4 WHERE org_id = $1 AND provider = $2 AND sealed_key = $3 RETURNING provider`,
      [orgId, provider, was, sealedKey],
    );
    return returnedRows(updated).length > 0;
  }
}
