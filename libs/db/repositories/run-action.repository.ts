import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ActionAnswer, RequiredActionType, ToolCall } from '@pylon/contracts';
import { Outbox, type DescribedEvent } from './outbox';
import type { NewConversationItem } from './conversation.repository';
import type { NewRunEvent } from './agent-run-row';

export type RunActionStatus = 'pending' | 'answered' | 'expired';

/** What a run waits for (or waited for), and the answer it got. */
export interface RunAction {
  id: string;
  runId: string;
  type: RequiredActionType;
  toolCalls: ToolCall[];
  status: RunActionStatus;
  answer: ActionAnswer | null;
  answerHash: string | null;
  expiresAt: Date;
  createdAt: Date;
}

export interface NewRunAction {
  id: string;
  runId: string;
  type: RequiredActionType;
  toolCalls: ToolCall[];
  expiresAt: Date;
}

/** The action, its `requires_action` event in the run's log, and its webhook event with its deliveries: one statement. */
const insertAction = (outbox: Outbox) => `WITH action AS (
     INSERT INTO run_actions (id, run_id, org_id, type, tool_calls, expires_at)
     SELECT $1, r.id, r.org_id, $4, $5::jsonb, $6 FROM agent_runs r WHERE r.id = $2 AND r.org_id = $3 AND r.status = 'running'
     ON CONFLICT DO NOTHING
     RETURNING id, run_id, org_id
   ), logged AS (
     INSERT INTO run_events (run_id, org_id, type, data, seq) SELECT run_id, org_id, 'requires_action', $7::jsonb, 0 FROM action
   ), ${outbox.withDeliveries(`SELECT $8::uuid, a.org_id, $9, a.run_id, $10::jsonb, clock_timestamp() FROM action a`)}
   SELECT (SELECT count(*) FROM action)::int AS inserted, (SELECT count(*) FROM planned)::int AS planned`;

const ACTION_COLUMNS = `id, run_id AS "runId", type, tool_calls AS "toolCalls", status, answer, answer_hash AS "answerHash",
  expires_at AS "expiresAt", created_at AS "createdAt"`;

function toAction(row: RunAction): RunAction {
  return { ...row, expiresAt: new Date(row.expiresAt), createdAt: new Date(row.createdAt) };
}

/** Required actions of runs. Every method takes the organisation. */
@Injectable()
export class RunActionRepository {
  private readonly insertAction: string;

  constructor(
    private readonly db: DataSource,
    private readonly outbox: Outbox,
  ) {
    this.insertAction = insertAction(outbox);
  }

  /**
   * Records the action of a running run with its events (`log` for the run, `webhook` for endpoints).
   * The id of the webhook event to announce, or null (no endpoint wants it, or a retry found it done).
   */
  async insert(orgId: string, action: NewRunAction, log: NewRunEvent, webhook: DescribedEvent): Promise<string | null> {
    return this.outbox.recordChange(this.db.manager, orgId, action.runId, async ({ id }) => {
      const [row] = (await this.db.query(this.insertAction, [
        action.id,
        action.runId,
        orgId,
        action.type,
        JSON.stringify(action.toolCalls),
        action.expiresAt,
        JSON.stringify(log.data),
        id,
        webhook.type,
        JSON.stringify(webhook.data),
      ])) as Array<{ inserted: number; planned: number }>;
      return row!.inserted === 0 ? null : row!.planned;
    });
  }

  async findById(orgId: string, actionId: string): Promise<RunAction | null> {
    const [row] = (await this.db.query(`SELECT ${ACTION_COLUMNS} FROM run_actions WHERE id = $1 AND org_id = $2`, [actionId, orgId])) as RunAction[];
    return row ? toAction(row) : null;
  }

  /** The run's latest action, whatever its status. */
  async latestOfRun(orgId: string, runId: string): Promise<RunAction | null> {
    const [row] = (await this.db.query(
      `SELECT ${ACTION_COLUMNS} FROM run_actions WHERE run_id = $1 AND org_id = $2 ORDER BY created_at DESC LIMIT 1`,
      [runId, orgId],
    )) as RunAction[];
    return row ? toAction(row) : null;
  }

  /**
   * pending → answered (the run's workflow accepted the answer), with what the answer adds to the run's log
   * and to its conversation, in one statement. False when it was no longer pending (a retry).
   */
  async answer(
    orgId: string,
    actionId: string,
    answer: ActionAnswer,
    answerHash: string,
    log: NewRunEvent[],
    items: NewConversationItem[],
  ): Promise<boolean> {
    const [row] = (await this.db.query(
      `WITH answered AS (
         UPDATE run_actions SET status = 'answered', answer = $3::jsonb, answer_hash = $4, answered_at = clock_timestamp()
          WHERE id = $1 AND org_id = $2 AND status = 'pending'
         RETURNING run_id, org_id
       ), logged AS (
         INSERT INTO run_events (run_id, org_id, type, data, seq)
         SELECT a.run_id, a.org_id, e.type, e.data::jsonb, 0
           FROM answered a, unnest($5::text[], $6::text[]) WITH ORDINALITY AS e(type, data, n)
          ORDER BY e.n
       ), remembered AS (
         INSERT INTO conversation_items (conversation_id, org_id, run_id, turn, type, data)
         SELECT c.id, c.org_id, r.id, r.conversation_seq, e.type, e.data::jsonb
           FROM answered a JOIN agent_runs r ON r.id = a.run_id JOIN conversations c ON c.id = r.conversation_id AND c.org_id = r.org_id,
                unnest($7::text[], $8::text[]) WITH ORDINALITY AS e(type, data, n)
          ORDER BY e.n
       )
       SELECT count(*)::int AS answered FROM answered`,
      [
        actionId,
        orgId,
        JSON.stringify(answer),
        answerHash,
        log.map((event) => event.type),
        log.map((event) => JSON.stringify(event.data)),
        items.map((item) => item.type),
        items.map((item) => JSON.stringify(item.data)),
      ],
    )) as Array<{ answered: number }>;
    return row!.answered > 0;
  }

  /** pending → expired (nobody answered in time). */
  async expire(orgId: string, actionId: string): Promise<void> {
    await this.db.query(`UPDATE run_actions SET status = 'expired' WHERE id = $1 AND org_id = $2 AND status = 'pending'`, [actionId, orgId]);
  }
}
