import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each organisation's own model-provider keys, sealed under SECRETS_KEY (never stored plain), with the hint
 * answers show (`sk-…last4`); each model turn keeps the provider's cached-input and reasoning token
 * counts, and whose key it ran on; a version names the models that take a turn its model cannot; a
 * conversation keeps the summaries of its earlier turns (`compaction` items).
 */
export class ModelCredentials1766500000000 implements MigrationInterface {
  name = 'ModelCredentials1766500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE model_credentials (
        org_id uuid NOT NULL REFERENCES organizations(id),
        provider text NOT NULL,
        sealed_key text NOT NULL,
        key_hint text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (org_id, provider)
      )`);
    await db.query(`ALTER TABLE agent_run_turns
      ADD COLUMN cached_input_tokens integer NOT NULL DEFAULT 0 CHECK (cached_input_tokens >= 0),
      ADD COLUMN reasoning_tokens integer NOT NULL DEFAULT 0 CHECK (reasoning_tokens >= 0),
      ADD COLUMN key_source text CHECK (key_source IN ('organization', 'operator'))`);
    await db.query(`ALTER TABLE agent_versions ADD COLUMN fallback_models jsonb NOT NULL DEFAULT '[]', ADD COLUMN compaction_model text`);
    await db.query(`ALTER TABLE conversation_items DROP CONSTRAINT conversation_items_type_check,
      ADD CONSTRAINT conversation_items_type_check CHECK (type IN ('input', 'answer', 'tool_call', 'tool_output', 'compaction'))`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM conversation_items WHERE type = 'compaction'`);
    await db.query(`ALTER TABLE conversation_items DROP CONSTRAINT conversation_items_type_check,
      ADD CONSTRAINT conversation_items_type_check CHECK (type IN ('input', 'answer', 'tool_call', 'tool_output'))`);
    await db.query(`ALTER TABLE agent_versions DROP COLUMN fallback_models, DROP COLUMN compaction_model`);
    await db.query(`ALTER TABLE agent_run_turns DROP COLUMN cached_input_tokens, DROP COLUMN reasoning_tokens, DROP COLUMN key_source`);
    await db.query(`DROP TABLE model_credentials`);
  }
}
