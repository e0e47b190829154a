import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A conversation's items are read turn by turn: each item carries its turn's number, so a turn accepted
 * while an earlier one still runs lists its input after that turn's answer, as the conversation reads.
 */
export class ConversationItemTurns1765700000000 implements MigrationInterface {
  name = 'ConversationItemTurns1765700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE conversation_items ADD COLUMN turn integer`);
    await db.query(`UPDATE conversation_items i SET turn = r.conversation_seq FROM agent_runs r WHERE r.id = i.run_id`);
    await db.query(`DELETE FROM conversation_items WHERE turn IS NULL`);
    await db.query(`ALTER TABLE conversation_items ALTER COLUMN turn SET NOT NULL`);
    await db.query(`DROP INDEX conversation_items_conversation_seq`);
    await db.query(`CREATE INDEX conversation_items_conversation_turn_seq ON conversation_items (conversation_id, turn, seq)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX conversation_items_conversation_turn_seq`);
    await db.query(`CREATE INDEX conversation_items_conversation_seq ON conversation_items (conversation_id, seq)`);
    await db.query(`ALTER TABLE conversation_items DROP COLUMN turn`);
  }
}
