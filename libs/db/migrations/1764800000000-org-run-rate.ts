import type { MigrationInterface, QueryRunner } from 'typeorm';

/** An organisation's own rate of agent runs started per second (null: the default AGENT_RUNS_PER_SECOND). */
export class OrgRunRate1764800000000 implements MigrationInterface {
  name = 'OrgRunRate1764800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE org_limits ADD COLUMN agent_runs_per_second integer CHECK (agent_runs_per_second > 0)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE org_limits DROP COLUMN agent_runs_per_second`);
  }
}
