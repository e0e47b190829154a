import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each model turn keeps the provider's cached-input and reasoning token counts beside its input and output.
 */
export class ModelCredentials1766500000000 implements MigrationInterface {
  name = 'ModelCredentials1766500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE agent_run_turns
      ADD COLUMN cached_input_tokens integer NOT NULL DEFAULT 0 CHECK (cached_input_tokens >= 0),
      ADD COLUMN reasoning_tokens integer NOT NULL DEFAULT 0 CHECK (reasoning_tokens >= 0)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE agent_run_turns DROP COLUMN cached_input_tokens, DROP COLUMN reasoning_tokens`);
  }
}
