import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What each model turn of a run took and cost (`agent_run_turns`, written with the turn's ledger debit in
 * one transaction), the operator's per-organisation model prices, and a version's structured output.
 */
export class RunUsageAndStructuredOutputs1765800000000 implements MigrationInterface {
  name = 'RunUsageAndStructuredOutputs1765800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE agent_versions ADD COLUMN response_format jsonb`);
    await db.query(`
      CREATE TABLE agent_run_turns (
        run_id uuid NOT NULL REFERENCES agent_runs (id) ON DELETE CASCADE,
        turn integer NOT NULL,
        org_id uuid NOT NULL,
        model text NOT NULL,
        input_tokens integer NOT NULL CHECK (input_tokens >= 0),
        output_tokens integer NOT NULL CHECK (output_tokens >= 0),
        counted_by text NOT NULL CHECK (counted_by IN ('provider', 'tokenizer')),
        cost bigint NOT NULL CHECK (cost >= 0),
        charged boolean NOT NULL,
        ledger_entry_id uuid REFERENCES token_entries (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (run_id, turn)
      )`);
    await db.query(`CREATE INDEX agent_run_turns_org_created ON agent_run_turns (org_id, created_at)`);
    await db.query(`
      CREATE TABLE org_model_prices (
        org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        model text NOT NULL,
        input_per_1k numeric NOT NULL CHECK (input_per_1k >= 0),
        output_per_1k numeric NOT NULL CHECK (output_per_1k >= 0),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, model)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE org_model_prices`);
    await db.query(`DROP TABLE agent_run_turns`);
    await db.query(`ALTER TABLE agent_versions DROP COLUMN response_format`);
  }
}
