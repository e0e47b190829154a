import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The channel every change to an API key (revoked, rolled, its limits or expiry, deleted) is announced on: its id. */
export const API_KEY_CHANGES_CHANNEL = 'pylon_api_key_changes';

/**
 * Announces each change to an API key when its transaction commits, so that every API replica drops the key
 * from its cache at once (LISTEN): a revoked key stops working on every replica, not only on the one that
 * revoked it. Marking a key used (`last_used_at` alone) is not a change.
 */
export class ApiKeyChanges1765200000000 implements MigrationInterface {
  name = 'ApiKeyChanges1765200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION api_keys_announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${API_KEY_CHANGES_CHANNEL}', OLD.id::text);
        RETURN NULL;
      END
      $$`);
    await db.query(`
      CREATE TRIGGER api_keys_announce_update AFTER UPDATE ON api_keys
      FOR EACH ROW WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
      EXECUTE FUNCTION api_keys_announce_change()`);
    await db.query(`
      CREATE TRIGGER api_keys_announce_delete AFTER DELETE ON api_keys
      FOR EACH ROW EXECUTE FUNCTION api_keys_announce_change()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER api_keys_announce_delete ON api_keys`);
    await db.query(`DROP TRIGGER api_keys_announce_update ON api_keys`);
    await db.query(`DROP FUNCTION api_keys_announce_change()`);
  }
}
