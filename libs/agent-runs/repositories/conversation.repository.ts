import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { RunStatus } from '@pylon/contracts';
import { Conversation, Page, PageRequest, paginate, parameter, statement } from '@pylon/db';

import { insertConversationItems, type ConversationItemType } from './conversation-items.sql';

export type { ConversationItemType };

export interface ConversationItem {
  /** The number of its turn, and its place in the order items were written: the conversation reads by both. */
  turn: number;
  seq: number;
  id: string;
  runId: string;
  type: ConversationItemType;
  data: Record<string, unknown>;
  createdAt: Date;
}

export interface NewConversationItem {
  type: ConversationItemType;
  data: Record<string, unknown>;
}

type ItemRow = {
  turn: number;
  seq: string;
  id: string;
  run_id: string;
  type: ConversationItemType;
  data: Record<string, unknown>;
  created_at: Date | string;
};

function toItem(row: ItemRow): ConversationItem {
  return { turn: row.turn, seq: Number(row.seq), id: row.id, runId: row.run_id, type: row.type, data: row.data, createdAt: new Date(row.created_at) };
}

const ITEM_COLUMNS = 'i.turn, i.seq, i.id, i.run_id, i.type, i.data, i.created_at';

/** A place in a conversation's items: after this turn's item `seq`. */
export interface ItemPosition {
  turn: number;
  seq: number;
}

const NUMBER_TURN = statement<{ conversationId: string; orgId: string; runId: string; seq: number }>()(
  {
    conversationId: parameter('uuid', (turn) => turn.conversationId),
    orgId: parameter('uuid', (turn) => turn.orgId),
    runId: parameter('uuid', (turn) => turn.runId),
    seq: parameter('integer', (turn) => turn.seq),
  },
  (p) => `WITH numbered AS (
     UPDATE agent_runs SET conversation_seq = ${p.seq}
      WHERE id = ${p.runId} AND org_id = ${p.orgId} AND conversation_id = ${p.conversationId}
     RETURNING id, org_id, conversation_id, conversation_seq, input, created_at
   ), counted AS (
     UPDATE conversations SET turns = GREATEST(turns, ${p.seq}) WHERE id = ${p.conversationId} AND org_id = ${p.orgId}
   ), renumbered AS (
     UPDATE conversation_items SET turn = ${p.seq} WHERE run_id = ${p.runId} AND org_id = ${p.orgId} AND type = 'input' RETURNING id
   )
   ${insertConversationItems({
     run: 'numbered r',
     items: { kind: 'one', type: 'input', data: `jsonb_build_object('text', r.input)`, createdAt: 'r.created_at' },
     whileConversationExists: false,
     where: 'NOT EXISTS (SELECT 1 FROM renumbered)',
   })}`,
);

const APPEND_ITEMS = statement<{ runId: string; orgId: string; items: NewConversationItem[] }>()(
  {
    runId: parameter('uuid', (append) => append.runId),
    orgId: parameter('uuid', (append) => append.orgId),
    types: parameter('text[]', (append) => append.items.map((item) => item.type)),
    data: parameter('text[]', (append) => append.items.map((item) => JSON.stringify(item.data))),
  },
  (p) =>
    insertConversationItems({
      run: 'agent_runs r',
      items: { kind: 'list', types: p.types, data: p.data },
      whileConversationExists: true,
      where: `r.id = ${p.runId} AND r.org_id = ${p.orgId}`,
    }),
);

/** Conversations, their items and the order of their turns. Every method takes the organisation. */
@Injectable()
export class ConversationRepository {
  constructor(private readonly db: DataSource) {}

  private get conversations() {
    return this.db.getRepository(Conversation);
  }

  /** False when a conversation with that idempotency key already exists (nothing written). */
  async insert(orgId: string, conversation: Omit<Conversation, 'turns' | 'orgId'>): Promise<boolean> {
    const rows = (await this.db.query(
      `INSERT INTO conversations (id, org_id, metadata, idempotency_key, request_hash, created_at)
       VALUES ($1, $2, $3::jsonb, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING id`,
      [conversation.id, orgId, JSON.stringify(conversation.metadata), conversation.idempotencyKey, conversation.requestHash, conversation.createdAt],
    )) as unknown[];
    return rows.length > 0;
  }

  findById(orgId: string, conversationId: string): Promise<Conversation | null> {
    return this.conversations.findOneBy({ orgId, id: conversationId });
  }

  findByIdempotencyKey(orgId: string, idempotencyKey: string): Promise<Conversation | null> {
    return this.conversations.findOneBy({ orgId, idempotencyKey });
  }

  list(orgId: string, page: PageRequest): Promise<Page<Conversation>> {
    return paginate(this.conversations.createQueryBuilder('conversation').where('conversation.org_id = :orgId', { orgId }), page);
  }

  /** Deletes the conversation and its items (its runs stay); false when it is not the organisation's. */
  async delete(orgId: string, conversationId: string): Promise<boolean> {
    // A data-modifying statement inside WITH, so the driver answers with its rows (a bare DELETE answers [rows, count]).
    const [row] = (await this.db.query(
      `WITH deleted AS (DELETE FROM conversations WHERE id = $1 AND org_id = $2 RETURNING id) SELECT count(*)::int AS deleted FROM deleted`,
      [conversationId, orgId],
    )) as Array<{ deleted: number }>;
    return row!.deleted > 0;
  }

  /**
   * A turn's number, as the conversation's workflow gave it: on its run, as the conversation's count of
   * turns, and on the run's input, the turn's first item; one statement. Called again for the same run
   * (a workflow task whose completion was lost is run again, and may number its turns otherwise), the
   * last number wins: the workflow starts a turn only once its number is recorded in its history.
   */
  async numberTurn(orgId: string, conversationId: string, runId: string, seq: number): Promise<void> {
    await this.db.query(NUMBER_TURN.text, NUMBER_TURN.values({ conversationId, orgId, runId, seq }));
  }

  /** Whether a turn of the conversation other than `exceptRunId` is not final (queued or running). */
  async hasUnfinishedTurn(orgId: string, conversationId: string, exceptRunId: string): Promise<boolean> {
    const rows = (await this.db.query(
      `SELECT 1 FROM agent_runs WHERE conversation_id = $1 AND org_id = $2 AND id <> $3 AND status IN ('queued', 'running') LIMIT 1`,
      [conversationId, orgId, exceptRunId],
    )) as unknown[];
    return rows.length > 0;
  }

  /** The items turn by turn, each turn's in the order written, after `after`, at most `limit`; null when the conversation is not the organisation's. */
  async items(orgId: string, conversationId: string, after: ItemPosition, limit: number): Promise<ConversationItem[] | null> {
    const rows = (await this.db.query(
      `SELECT c.id AS conversation, ${ITEM_COLUMNS}
         FROM conversations c
         LEFT JOIN LATERAL (SELECT * FROM conversation_items
                             WHERE conversation_id = c.id AND (turn, seq) > ($3, $4) ORDER BY turn, seq LIMIT $5) i ON true
        WHERE c.id = $1 AND c.org_id = $2
        ORDER BY i.turn, i.seq`,
      [conversationId, orgId, after.turn, after.seq, limit],
    )) as Array<ItemRow & { conversation: string }>;
    if (rows.length === 0) return null;
    return rows.filter((row) => row.seq !== null).map(toItem);
  }

  /**
   * What the turns accepted before turn `seq` left in the conversation, in order: the history a turn sees; with
   * the summary turn `seq` itself made of them, if it made one (its later model turns see it too).
   */
  async itemsBeforeTurn(orgId: string, conversationId: string, seq: number): Promise<ConversationItem[]> {
    const rows = (await this.db.query(
      `SELECT ${ITEM_COLUMNS}
         FROM conversation_items i
        WHERE i.conversation_id = $1 AND i.org_id = $2 AND (i.turn < $3 OR (i.turn = $3 AND i.type = 'compaction'))
        ORDER BY i.turn, i.seq`,
      [conversationId, orgId, seq],
    )) as ItemRow[];
    return rows.map(toItem);
  }

  /**
   * Appends items of a run that is a conversation's turn, in order (nothing for any other run, or once
   * its conversation is deleted). Within the caller's transaction when `manager` is given.
   */
  async appendItems(orgId: string, runId: string, items: NewConversationItem[], manager: EntityManager = this.db.manager): Promise<void> {
    if (items.length === 0) return;
    await manager.query(APPEND_ITEMS.text, APPEND_ITEMS.values({ runId, orgId, items }));
  }
}
