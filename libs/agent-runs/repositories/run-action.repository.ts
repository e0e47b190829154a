import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ActionAnswer, RequiredActionType, ToolCall } from '@pylon/contracts';
import { Outbox, type DescribedEvent, type Parameter, type Parameters, parameter, queryPool, statement, type Statement } from '@pylon/db';
import type { NewConversationItem } from './conversation.repository';
import type { NewRunEvent } from './agent-run-row';
import { insertConversationItems } from './conversation-items.sql';

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

/** What `insert` writes: the action, its event in the run's log, and its webhook event. */
interface ActionInsert {
  orgId: string;
  action: NewRunAction;
  log: NewRunEvent;
  eventId: string;
  webhook: DescribedEvent;
}

/** The action, its `requires_action` event in the run's log, and its webhook event with its deliveries: one statement. */
const insertAction = (outbox: Outbox) =>
  statement<ActionInsert>()(
    {
      id: parameter('uuid', (insert) => insert.action.id),
      runId: parameter('uuid', (insert) => insert.action.runId),
      orgId: parameter('uuid', (insert) => insert.orgId),
      type: parameter('text', (insert) => insert.action.type),
      toolCalls: parameter('jsonb', (insert) => JSON.stringify(insert.action.toolCalls)),
      expiresAt: parameter('timestamptz', (insert) => insert.action.expiresAt),
      logData: parameter('jsonb', (insert) => JSON.stringify(insert.log.data)),
      eventId: parameter('uuid', (insert) => insert.eventId),
      eventType: parameter('text', (insert) => insert.webhook.type),
      eventData: parameter('jsonb', (insert) => JSON.stringify(insert.webhook.data)),
    },
    (p) => `WITH action AS (
     INSERT INTO run_actions (id, run_id, org_id, type, tool_calls, expires_at)
     SELECT ${p.id}, r.id, r.org_id, ${p.type}, ${p.toolCalls}, ${p.expiresAt}
       FROM agent_runs r WHERE r.id = ${p.runId} AND r.org_id = ${p.orgId} AND r.status = 'running'
     ON CONFLICT DO NOTHING
     RETURNING id, run_id, org_id
   ), logged AS (
     INSERT INTO run_events (run_id, org_id, type, data, seq) SELECT run_id, org_id, 'requires_action', ${p.logData}, 0 FROM action
   ), ${outbox.withDeliveries(`SELECT ${p.eventId}, a.org_id, ${p.eventType}, a.run_id, ${p.eventData}, clock_timestamp() FROM action a`)}
   SELECT (SELECT count(*) FROM action)::int AS inserted, (SELECT count(*) FROM planned)::int AS planned`,
  );

/** What recording an answer writes: the answer, and what it adds to the run's log and to its conversation. */
export interface AnswerWrite {
  actionId: string;
  answer: ActionAnswer;
  answerHash: string;
  log: NewRunEvent[];
  items: NewConversationItem[];
}

/** The parameters of an answer's record, read by `write` from a statement's input: a group for `recordAnswerPart`. */
export function answerParameters<In>(write: (input: In) => AnswerWrite) {
  return {
    actionId: parameter<In>('uuid', (input) => write(input).actionId),
    answer: parameter<In>('jsonb', (input) => JSON.stringify(write(input).answer)),
    answerHash: parameter<In>('text', (input) => write(input).answerHash),
    logTypes: parameter<In>('text[]', (input) => write(input).log.map((event) => event.type)),
    logData: parameter<In>('text[]', (input) => write(input).log.map((event) => JSON.stringify(event.data))),
    itemTypes: parameter<In>('text[]', (input) => write(input).items.map((item) => item.type)),
    itemData: parameter<In>('text[]', (input) => write(input).items.map((item) => JSON.stringify(item.data))),
  };
}

/**
 * The CTEs that record an answer, pending → answered, with its events and conversation items (only if it was
 * still pending: a retry writes nothing). `answered` holds the action's run when it was recorded now.
 */
export function recordAnswerPart(part: { org: Parameter; write: Parameters<ReturnType<typeof answerParameters>> }): string {
  const { write } = part;
  return `answered AS (
     UPDATE run_actions SET status = 'answered', answer = ${write.answer}, answer_hash = ${write.answerHash}, answered_at = clock_timestamp()
      WHERE id = ${write.actionId} AND org_id = ${part.org} AND status = 'pending'
     RETURNING run_id, org_id
   ), answer_logged AS (
     INSERT INTO run_events (run_id, org_id, type, data, seq)
     SELECT a.run_id, a.org_id, e.type, e.data::jsonb, 0
       FROM answered a, unnest(${write.logTypes}, ${write.logData}) WITH ORDINALITY AS e(type, data, n)
      ORDER BY e.n
   ), answer_remembered AS (
     ${insertConversationItems({
       run: 'answered a JOIN agent_runs r ON r.id = a.run_id',
       items: { kind: 'list', types: write.itemTypes, data: write.itemData },
       whileConversationExists: true,
     })}
   )`;
}

type AnswerOfOrg = { orgId: string; write: AnswerWrite };

const ANSWER = statement<AnswerOfOrg>()(
  { orgId: parameter('uuid', (input) => input.orgId), write: answerParameters((input: AnswerOfOrg) => input.write) },
  (p) => `WITH ${recordAnswerPart({ org: p.orgId, write: p.write })}
   SELECT count(*)::int AS answered FROM answered`,
  { prepare: true },
);

const ACTION_COLUMNS = `id, run_id AS "runId", type, tool_calls AS "toolCalls", status, answer, answer_hash AS "answerHash",
  expires_at AS "expiresAt", created_at AS "createdAt"`;

function toAction(row: RunAction): RunAction {
  return { ...row, expiresAt: new Date(row.expiresAt), createdAt: new Date(row.createdAt) };
}

/** Required actions of runs. Every method takes the organisation. */
@Injectable()
export class RunActionRepository {
  private readonly insertAction: Statement<ActionInsert>;

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
      const insert = this.insertAction;
      const [row] = (await this.db.query(insert.text, insert.values({ orgId, action, log, eventId: id, webhook }))) as Array<{
        inserted: number;
        planned: number;
      }>;
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
  async answer(orgId: string, write: AnswerWrite): Promise<boolean> {
    const [row] = await queryPool<{ answered: number }>(this.db, ANSWER.text, ANSWER.values({ orgId, write }));
    return row!.answered > 0;
  }

  /** pending → expired (nobody answered in time). */
  async expire(orgId: string, actionId: string): Promise<void> {
    await this.db.query(`UPDATE run_actions SET status = 'expired' WHERE id = $1 AND org_id = $2 AND status = 'pending'`, [actionId, orgId]);
  }
}
