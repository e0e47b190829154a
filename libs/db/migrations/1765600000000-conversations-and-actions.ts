import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Agents that converse and wait:
 * - `conversations`, whose runs are its turns (`agent_runs.conversation_id`, numbered by
 *   `conversation_seq` in the order they were accepted) and whose `conversation_items` are what the
 *   model saw and said, in order (`seq`). Deleting a conversation deletes its items; its runs stay.
 * - `run_actions`: what a waiting run needs (tool outputs or approvals), and the answer it got.
 * - a version's `action_timeout_seconds`: how long its runs wait for an answer.
 */
export class ConversationsAndActions1765600000000 implements MigrationInterface {
  name = 'ConversationsAndActions1765600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE agent_versions ADD COLUMN action_timeout_seconds integer NOT NULL DEFAULT 86400`);
    await db.query(`
      CREATE TABLE conversations (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations(id),
        metadata jsonb NOT NULL DEFAULT '{}',
        turns integer NOT NULL DEFAULT 0,
        idempotency_key text,
        request_hash text,
        created_at timestamptz NOT NULL
      )`);
    await db.query(`CREATE INDEX conversations_org_created ON conversations (org_id, created_at DESC, id DESC)`);
    await db.query(`CREATE UNIQUE INDEX conversations_org_idempotency ON conversations (org_id, idempotency_key) WHERE idempotency_key IS NOT NULL`);
    await db.query(`ALTER TABLE agent_runs ADD COLUMN conversation_id uuid, ADD COLUMN conversation_seq integer`);
    await db.query(`CREATE INDEX agent_runs_conversation_seq ON agent_runs (conversation_id, conversation_seq) WHERE conversation_id IS NOT NULL`);
    await db.query(`
      CREATE TABLE conversation_items (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        conversation_id uuid NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        org_id uuid NOT NULL,
        run_id uuid NOT NULL,
        type text NOT NULL CHECK (type IN ('input', 'answer', 'tool_call', 'tool_output')),
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await db.query(`CREATE INDEX conversation_items_conversation_seq ON conversation_items (conversation_id, seq)`);
    await db.query(`CREATE INDEX conversation_items_run ON conversation_items (run_id)`);
    await db.query(`
      CREATE TABLE run_actions (
        id uuid PRIMARY KEY,
        run_id uuid NOT NULL REFERENCES agent_runs(id) ON DELETE CASCADE,
        org_id uuid NOT NULL,
        type text NOT NULL CHECK (type IN ('submit_tool_outputs', 'approve_tool_calls')),
        tool_calls jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'answered', 'expired')),
        answer jsonb,
        answer_hash text,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        answered_at timestamptz
      )`);
    await db.query(`CREATE INDEX run_actions_run_created ON run_actions (run_id, created_at DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE run_actions`);
    await db.query(`DROP TABLE conversation_items`);
    await db.query(`DROP INDEX agent_runs_conversation_seq`);
    await db.query(`ALTER TABLE agent_runs DROP COLUMN conversation_seq, DROP COLUMN conversation_id`);
    await db.query(`DROP TABLE conversations`);
    await db.query(`ALTER TABLE agent_versions DROP COLUMN action_timeout_seconds`);
  }
}
