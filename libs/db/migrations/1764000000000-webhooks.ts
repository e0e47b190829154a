import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Webhook endpoints, one delivery per (event, endpoint), and every attempt of each delivery. */
export class Webhooks1764000000000 implements MigrationInterface {
  name = 'Webhooks1764000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations(id),
        url text NOT NULL,
        description text,
        events text[],
        enabled boolean NOT NULL,
        disabled_reason text,
        secret text NOT NULL,
        previous_secret text,
        previous_secret_expires_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await db.query(`CREATE INDEX webhook_endpoints_org_created ON webhook_endpoints (org_id, created_at DESC, id DESC)`);
    await db.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL,
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        event_id uuid NOT NULL REFERENCES events(id),
        event_type text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        attempt_count integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        last_status_code integer,
        last_error text,
        delivered_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (event_id, endpoint_id)
      )`);
    await db.query(`CREATE INDEX webhook_deliveries_endpoint_created ON webhook_deliveries (endpoint_id, created_at DESC, id DESC)`);
    await db.query(`
      CREATE TABLE webhook_attempts (
        id uuid PRIMARY KEY,
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        attempt_number integer NOT NULL,
        started_at timestamptz NOT NULL,
        duration_ms integer NOT NULL,
        status_code integer,
        response_excerpt text,
        error text,
        UNIQUE (delivery_id, attempt_number)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhook_attempts`);
    await db.query(`DROP TABLE webhook_deliveries`);
    await db.query(`DROP TABLE webhook_endpoints`);
  }
}
