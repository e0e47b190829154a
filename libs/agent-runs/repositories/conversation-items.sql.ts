import type { Parameter } from '@pylon/db';

/** The kinds of a conversation's items. */
/** `compaction`: a summary of the turns before `turns_before`, which later turns see instead of them. */
export type ConversationItemType = 'input' | 'answer' | 'tool_call' | 'tool_output' | 'compaction';

/**
 * The items to write: one, of `type` with `data` (a SQL jsonb expression over the run's row) and optionally when it
 * was written (`createdAt`, else the time of writing); or a list given as two text[] parameters, the types and the
 * data as JSON, written in their order.
 */
export type ItemsToWrite =
  { kind: 'one'; type: ConversationItemType; data: string; createdAt?: string } | { kind: 'list'; types: Parameter; data: Parameter };

/** How a statement writes items of a run, for `insertConversationItems`. */
export interface ItemsOfRun {
  /**
   * The FROM items giving the run the items belong to, aliased `r`: a row with the run's `id`, `org_id`,
   * `conversation_id` and `conversation_seq` (its turn's number), e.g. `agent_runs r` or a CTE of the statement.
   */
  run: string;
  items: ItemsToWrite;
  /**
   * Only while the run's conversation exists: nothing is written once it is deleted. Else the items are written
   * for the run's conversation as it is named (a deleted conversation fails the statement on its foreign key).
   */
  whileConversationExists: boolean;
  /** A condition on the run's row (and the statement's parameters): items are written only when it holds. */
  where?: string;
}

/**
 * The one INSERT INTO conversation_items: every statement that writes items uses it. An item belongs to its run's
 * conversation and organisation, under the run's turn (its `conversation_seq`), and the items a statement writes are
 * written in their order (the conversation reads each turn's items by `seq`).
 */
export function insertConversationItems(part: ItemsOfRun): string {
  const { items } = part;
  const conversation = part.whileConversationExists ? ` JOIN conversations c ON c.id = r.conversation_id AND c.org_id = r.org_id` : '';
  const where = part.where ? `\n      WHERE ${part.where}` : '';
  if (items.kind === 'one') {
    const created = items.createdAt === undefined ? { column: '', value: '' } : { column: ', created_at', value: `, ${items.createdAt}` };
    return `INSERT INTO conversation_items (conversation_id, org_id, run_id, turn, type, data${created.column})
     SELECT r.conversation_id, r.org_id, r.id, r.conversation_seq, '${items.type}', ${items.data}${created.value}
       FROM ${part.run}${conversation}${where}`;
  }
  return `INSERT INTO conversation_items (conversation_id, org_id, run_id, turn, type, data)
     SELECT r.conversation_id, r.org_id, r.id, r.conversation_seq, e.type, e.data::jsonb
       FROM ${part.run}${conversation},
            unnest(${items.types}, ${items.data}) WITH ORDINALITY AS e(type, data, n)${where}
      ORDER BY e.n`;
}
