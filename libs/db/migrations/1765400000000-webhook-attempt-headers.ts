import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The delivery log a receiver's developer debugs from: each attempt keeps the headers it sent (with its
 * `webhook-timestamp` and `webhook-signature`) and the headers it got back (bounded; null for attempts
 * recorded before this, or without an answer). The log filters by status and by event type, and bulk
 * recovery reads an endpoint's failed deliveries since a time: each an index scan in the list's order.
 */
export class WebhookAttemptHeaders1765400000000 implements MigrationInterface {
  name = 'WebhookAttemptHeaders1765400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_attempts ADD COLUMN request_headers jsonb, ADD COLUMN response_headers jsonb`);
    await db.query(`CREATE INDEX webhook_deliveries_endpoint_status_created ON webhook_deliveries (endpoint_id, status, created_at DESC, id DESC)`);
    await db.query(`CREATE INDEX webhook_deliveries_endpoint_type_created ON webhook_deliveries (endpoint_id, event_type, created_at DESC, id DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX webhook_deliveries_endpoint_type_created`);
    await db.query(`DROP INDEX webhook_deliveries_endpoint_status_created`);
    await db.query(`ALTER TABLE webhook_attempts DROP COLUMN response_headers, DROP COLUMN request_headers`);
  }
}
