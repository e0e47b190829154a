import type { MigrationInterface, QueryRunner } from 'typeorm';

/** How many deliveries an endpoint has in flight (its cap) is read every time an event is delivered. */
export class DeliveryBacklog1764200000000 implements MigrationInterface {
  name = 'DeliveryBacklog1764200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX webhook_deliveries_endpoint_pending ON webhook_deliveries (endpoint_id) WHERE status = 'pending'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX webhook_deliveries_endpoint_pending`);
  }
}
