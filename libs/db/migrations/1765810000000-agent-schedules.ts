import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Agent schedules (each fired by a Temporal Schedule), and on a run the schedule and nominal time that
 * created it: a schedule lists its runs through its own index.
 */
export class AgentSchedules1765810000000 implements MigrationInterface {
  name = 'AgentSchedules1765810000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE agent_schedules (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations(id),
        agent_version_id uuid NOT NULL,
        input text NOT NULL,
        cron text,
        every_seconds integer CHECK (every_seconds >= 1),
        timezone text NOT NULL,
        overlap text NOT NULL CHECK (overlap IN ('skip', 'buffer_one', 'allow_all')),
        paused boolean NOT NULL,
        registered boolean NOT NULL DEFAULT false,
        idempotency_key text,
        request_hash text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK ((cron IS NULL) <> (every_seconds IS NULL))
      )`);
    await db.query(`CREATE INDEX agent_schedules_org_created ON agent_schedules (org_id, created_at DESC, id DESC)`);
    await db.query(
      `CREATE UNIQUE INDEX agent_schedules_org_idempotency ON agent_schedules (org_id, idempotency_key) WHERE idempotency_key IS NOT NULL`,
    );
    await db.query(`ALTER TABLE agent_runs ADD COLUMN schedule_id uuid, ADD COLUMN scheduled_at timestamptz`);
    await db.query(
      `CREATE INDEX agent_runs_org_schedule_created ON agent_runs (org_id, schedule_id, created_at DESC, id DESC) WHERE schedule_id IS NOT NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX agent_runs_org_schedule_created`);
    await db.query(`ALTER TABLE agent_runs DROP COLUMN schedule_id, DROP COLUMN scheduled_at`);
    await db.query(`DROP TABLE agent_schedules`);
  }
}
