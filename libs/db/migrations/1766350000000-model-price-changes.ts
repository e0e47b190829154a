import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The channel every change to an organisation's model prices is announced on: the organisation's id. */
export const MODEL_PRICE_CHANGES_CHANNEL = 'pylon_model_price_changes';

/**
 * Announces each change to an organisation's own model prices when its transaction commits, so that every
 * process drops the organisation's prices from its cache at once (LISTEN): a price the operator sets applies
 * to the next model turn on every worker, not only in the process that set it.
 */
export class ModelPriceChanges1766350000000 implements MigrationInterface {
  name = 'ModelPriceChanges1766350000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION org_model_prices_announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          PERFORM pg_notify('${MODEL_PRICE_CHANGES_CHANNEL}', OLD.org_id::text);
        ELSE
          PERFORM pg_notify('${MODEL_PRICE_CHANGES_CHANNEL}', NEW.org_id::text);
        END IF;
        IF TG_OP = 'UPDATE' AND OLD.org_id IS DISTINCT FROM NEW.org_id THEN
          PERFORM pg_notify('${MODEL_PRICE_CHANGES_CHANNEL}', OLD.org_id::text);
        END IF;
        RETURN NULL;
      END
      $$`);
    await db.query(`
      CREATE TRIGGER org_model_prices_announce AFTER INSERT OR UPDATE OR DELETE ON org_model_prices
      FOR EACH ROW EXECUTE FUNCTION org_model_prices_announce_change()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER org_model_prices_announce ON org_model_prices`);
    await db.query(`DROP FUNCTION org_model_prices_announce_change()`);
  }
}
