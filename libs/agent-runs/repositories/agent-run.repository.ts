import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { RunStatus, ToolCall } from '@pylon/contracts';
import {
  AgentRun,
  Page,
  PageRequest,
  paginate,
  Outbox,
  type DescribedEvent,
  type EventFactory,
  parameter,
  statement,
  type Parameters,
  type Statement,
  prepared,
  queryPool,
  TOUCH_UPDATED_AT,
  countInStatus,
  isoTimestamp,
} from '@pylon/db';

import { RUN_COLUMNS, toAgentRun, type NewRunEvent } from './agent-run-row';
import { insertTurn, turnUsage, type NewRunTurnUsage } from './run-usage.repository';
import { insertConversationItems } from './conversation-items.sql';
import { answerParameters, recordAnswerPart, type AnswerWrite } from './run-action.repository';

export type NewAgentRun = Pick<AgentRun, 'id' | 'orgId' | 'agentVersionId' | 'input' | 'idempotencyKey' | 'requestHash' | 'createdAt'> &
  Partial<Pick<AgentRun, 'conversationId' | 'conversationSeq' | 'scheduleId' | 'scheduledAt'>>;

/** The statements of a run's life, prepared (see prepared-statements.ts): every run sends each of them. */
const INSERT_QUEUED = statement<NewAgentRun>()(
  {
    id: parameter('uuid', (run) => run.id),
    orgId: parameter('uuid', (run) => run.orgId),
    agentVersionId: parameter('uuid', (run) => run.agentVersionId),
    input: parameter('text', (run) => run.input),
    idempotencyKey: parameter('text', (run) => run.idempotencyKey),
    requestHash: parameter('text', (run) => run.requestHash),
    createdAt: parameter('timestamptz', (run) => run.createdAt),
    conversationId: parameter('uuid', (run) => run.conversationId ?? null),
    conversationSeq: parameter('integer', (run) => run.conversationSeq ?? null),
    scheduleId: parameter('uuid', (run) => run.scheduleId ?? null),
    scheduledAt: parameter('timestamptz', (run) => run.scheduledAt ?? null),
  },
  (p) => `WITH inserted AS (
     INSERT INTO agent_runs
       (id, org_id, agent_version_id, input, status, idempotency_key, request_hash, created_at, updated_at, conversation_id, conversation_seq,
        schedule_id, scheduled_at)
     VALUES (${p.id}, ${p.orgId}, ${p.agentVersionId}, ${p.input}, 'queued', ${p.idempotencyKey}, ${p.requestHash}, ${p.createdAt}, ${p.createdAt},
             ${p.conversationId}, ${p.conversationSeq}, ${p.scheduleId}, ${p.scheduledAt})
     ON CONFLICT DO NOTHING
     RETURNING id, org_id, conversation_id, conversation_seq, input, created_at
   ), logged AS (
     INSERT INTO run_events (run_id, org_id, type, data, seq)
     SELECT id, org_id, 'queued', '{"status": "queued"}'::jsonb, 1 FROM inserted
   ), asked AS (
     ${insertConversationItems({
       run: 'inserted r',
       items: { kind: 'one', type: 'input', data: `jsonb_build_object('text', r.input)`, createdAt: 'r.created_at' },
       whileConversationExists: false,
       where: 'r.conversation_id IS NOT NULL AND r.conversation_seq IS NOT NULL',
     })}
   )
   -- Read in the statement's snapshot, so the run just inserted is not among them.
   SELECT id, NOT EXISTS (SELECT 1 FROM agent_runs WHERE org_id = ${p.orgId} AND status = 'queued') AS nothing_else_queued FROM inserted`,
  { prepare: true },
);
const FIND_BY_ID = prepared(`SELECT ${RUN_COLUMNS} FROM agent_runs WHERE id = $1 AND org_id = $2`);

type RunOfOrg = { runId: string; orgId: string };

/** The tool calls the run's log holds (a subquery over the run `r`), as the workflow knows them. */
const TOOL_CALLS_LOGGED = `(SELECT COALESCE(jsonb_agg(jsonb_build_object('id', e.data->>'call_id', 'name', e.data->>'name', 'arguments', e.data->>'arguments') ORDER BY e.seq), '[]')
             FROM run_events e WHERE e.run_id = r.id AND e.type = 'tool_call')`;

const MARK_RUNNING = statement<RunOfOrg>()(
  { runId: parameter('uuid', (run) => run.runId), orgId: parameter('uuid', (run) => run.orgId) },
  (p) => `WITH started AS (
     UPDATE agent_runs SET status = 'running', ${TOUCH_UPDATED_AT} WHERE id = ${p.runId} AND org_id = ${p.orgId} AND status = 'queued'
     RETURNING ${RUN_COLUMNS}
   ), logged AS (
     INSERT INTO run_events (run_id, org_id, type, data, seq)
     SELECT id, "orgId", 'running', '{"status": "running"}'::jsonb, 0 FROM started
   )
   SELECT *, '[]'::jsonb AS "toolCallsLogged" FROM started
   UNION ALL
   SELECT ${RUN_COLUMNS}, ${TOOL_CALLS_LOGGED} AS "toolCallsLogged"
     FROM agent_runs r WHERE id = ${p.runId} AND org_id = ${p.orgId} AND NOT EXISTS (SELECT 1 FROM started)`,
  { prepare: true },
);

/** A run that goes on from an answer (so it runs already): the answer recorded, and the run read, in one statement. */
const RESUME_WITH_ANSWER = statement<RunOfOrg & { write: AnswerWrite }>()(
  {
    runId: parameter('uuid', (run) => run.runId),
    orgId: parameter('uuid', (run) => run.orgId),
    write: answerParameters((run: RunOfOrg & { write: AnswerWrite }) => run.write),
  },
  (p) => `WITH ${recordAnswerPart({ org: p.orgId, write: p.write })}
   SELECT ${RUN_COLUMNS}, ${TOOL_CALLS_LOGGED} AS "toolCallsLogged" FROM agent_runs r WHERE id = ${p.runId} AND org_id = ${p.orgId}`,
  { prepare: true },
);

/** What a run's FINISH writes: its final state, its log's last events, its webhook event, and the model turn that answered. */
interface Finish {
  runId: string;
  orgId: string;
  final: Pick<AgentRun, 'status' | 'output' | 'error'>;
  log: NewRunEvent[];
  eventId: string;
  event: DescribedEvent;
  turn: NewRunTurnUsage | null;
}

const finishParameters = {
  runId: parameter<Finish>('uuid', (finish) => finish.runId),
  orgId: parameter<Finish>('uuid', (finish) => finish.orgId),
  status: parameter<Finish>('text', (finish) => finish.final.status),
  output: parameter<Finish>('text', (finish) => finish.final.output),
  error: parameter<Finish>('text', (finish) => finish.final.error),
  logTypes: parameter<Finish>('text[]', (finish) => finish.log.map((entry) => entry.type)),
  logData: parameter<Finish>('text[]', (finish) => finish.log.map((entry) => JSON.stringify(entry.data))),
  eventId: parameter<Finish>('uuid', (finish) => finish.eventId),
  eventType: parameter<Finish>('text', (finish) => finish.event.type),
  eventData: parameter<Finish>('jsonb', (finish) => JSON.stringify(finish.event.data)),
};

/**
 * The final transition, from any of `from`: its events in the run's log, its webhook event and the deliveries it
 * owes, for a conversation's turn that succeeded, its answer as the conversation's item, and `withTurn`, the model
 * turn that answered (recorded whether or not the run was still to finish, as on its own). One statement.
 */
function finishFrom(outbox: Outbox, from: ReadonlyArray<'queued' | 'running'>, withTurn: boolean): Statement<Finish> {
  const statuses = from.map((status) => `'${status}'`).join(', ');
  const final = (p: Parameters<typeof finishParameters>) => `finished AS (
     UPDATE agent_runs SET status = ${p.status}, output = ${p.output}, error = ${p.error}, ${TOUCH_UPDATED_AT}
      WHERE id = ${p.runId} AND org_id = ${p.orgId} AND status IN (${statuses})
     RETURNING id, org_id, conversation_id, conversation_seq, to_jsonb(${isoTimestamp('updated_at')}) AS updated_at
   ), logged AS (
     INSERT INTO run_events (run_id, org_id, type, data, seq)
     SELECT f.id, f.org_id, e.type, jsonb_set(e.data::jsonb, '{updated_at}', f.updated_at, false), 0
       FROM finished f, unnest(${p.logTypes}, ${p.logData}) WITH ORDINALITY AS e(type, data, n)
      ORDER BY e.n
   ), answered AS (
     ${insertConversationItems({
       run: 'finished r',
       items: { kind: 'one', type: 'answer', data: `jsonb_build_object('text', ${p.output})` },
       whileConversationExists: true,
       where: `${p.status} = 'succeeded'`,
     })}
   ), ${outbox.withDeliveries(
     `SELECT ${p.eventId}, f.org_id, ${p.eventType}, f.id, jsonb_set(${p.eventData}, '{updated_at}', f.updated_at, false), clock_timestamp() FROM finished f`,
   )}
   SELECT (SELECT count(*) FROM finished)::int AS finished, (SELECT count(*) FROM planned)::int AS planned`;
  if (!withTurn) return statement<Finish>()(finishParameters, (p) => `WITH ${final(p)}`, { prepare: true });
  return statement<Finish>()(
    { ...finishParameters, turn: turnUsage<Finish>((finish) => finish.turn!) },
    (p) => `WITH turn AS (${insertTurn({ run: p.runId, org: p.orgId, usage: p.turn })}), ${final(p)}`,
    { prepare: true },
  );
}

/** The run's final statements, each one statement on the pool. */
function finishStatements(outbox: Outbox) {
  return {
    fromQueuedOrRunning: finishFrom(outbox, ['queued', 'running'], false),
    fromQueued: finishFrom(outbox, ['queued'], false),
    /** The first with the model turn that answered. */
    withTurn: finishFrom(outbox, ['queued', 'running'], true),
  };
}

/**
 * The run projection. Transitions are conditional updates, so a retried activity never
 * duplicates or regresses a run: queued → running → succeeded | failed, and final is final.
 */
@Injectable()
export class AgentRunRepository {
  private readonly finishes: ReturnType<typeof finishStatements>;

  constructor(
    private readonly db: DataSource,
    private readonly outbox: Outbox,
  ) {
    this.finishes = finishStatements(outbox);
  }

  private get runs() {
    return this.db.getRepository(AgentRun);
  }

  /**
   * Inserts a queued run with its `queued` event (and, for a conversation's turn, its input as the
   * conversation's item), and says whether the organisation had no other run queued; null when a run with
   * that id or idempotency key already exists. Within the caller's transaction when `manager` is given, else
   * on the pool.
   */
  async insertQueued(run: NewAgentRun, manager?: EntityManager): Promise<{ nothingElseQueued: boolean } | null> {
    const parameters = INSERT_QUEUED.values(run);
    type Inserted = { nothing_else_queued: boolean };
    const [inserted] = manager
      ? ((await manager.query(INSERT_QUEUED.text, parameters)) as Inserted[])
      : await queryPool<Inserted>(this.db, INSERT_QUEUED.text, parameters);
    return inserted ? { nothingElseQueued: inserted.nothing_else_queued } : null;
  }

  /** The hottest read of the API (callers poll it): plain SQL on the pool, no query builder or QueryRunner. */
  async findById(orgId: string, runId: string): Promise<AgentRun | null> {
    const [row] = await queryPool<AgentRun>(this.db, FIND_BY_ID, [runId, orgId]);
    return row ? toAgentRun(row) : null;
  }

  findByIdempotencyKey(orgId: string, idempotencyKey: string): Promise<AgentRun | null> {
    return this.runs.findOneBy({ orgId, idempotencyKey });
  }

  list(orgId: string, status: RunStatus | undefined, page: PageRequest): Promise<Page<AgentRun>> {
    const query = this.runs.createQueryBuilder('run').where('run.org_id = :orgId', { orgId });
    if (status) query.andWhere('run.status = :status', { status });
    return paginate(query, page);
  }

  /** The runs a schedule's firings created, newest first. */
  listBySchedule(orgId: string, scheduleId: string, page: PageRequest): Promise<Page<AgentRun>> {
    const query = this.runs.createQueryBuilder('run').where('run.org_id = :orgId AND run.schedule_id = :scheduleId', { orgId, scheduleId });
    return paginate(query, page);
  }

  /** The organisation's queued runs, counted up to `upTo` (an index-only scan of at most that many entries). */
  countQueued(orgId: string, upTo: number): Promise<number> {
    return countInStatus(this.db, 'agent_runs', orgId, 'queued', upTo);
  }

  /** Removes a run whose workflow could not be started (and its input item), so nothing is left queued forever. */
  async deleteQueued(orgId: string, runId: string): Promise<void> {
    await this.db.query(
      `WITH deleted AS (DELETE FROM agent_runs WHERE id = $1 AND org_id = $2 AND status = 'queued' RETURNING id)
       DELETE FROM conversation_items WHERE run_id IN (SELECT id FROM deleted) AND org_id = $2`,
      [runId, orgId],
    );
  }

  /**
   * queued → running with its `running` event, in one statement on the pool; a run that goes on from an
   * answer (`write`) runs already and records the answer in that statement instead. The run as it is afterwards
   * (running, or the state it already had) with the tool calls its log holds, or null when it does not exist.
   */
  async markRunning(orgId: string, runId: string, write?: AnswerWrite): Promise<{ run: AgentRun; toolCallsLogged: ToolCall[] } | null> {
    const [row] = write
      ? await queryPool<AgentRun & { toolCallsLogged: ToolCall[] }>(
          this.db,
          RESUME_WITH_ANSWER.text,
          RESUME_WITH_ANSWER.values({ runId, orgId, write }),
        )
      : await queryPool<AgentRun & { toolCallsLogged: ToolCall[] }>(this.db, MARK_RUNNING.text, MARK_RUNNING.values({ runId, orgId }));
    if (!row) return null;
    const { toolCallsLogged, ...run } = row;
    return { run: toAgentRun(run as AgentRun), toolCallsLogged };
  }

  /**
   * → succeeded with the output, after `logBefore` (e.g. the last output deltas), and with `turn` the
   * model turn that answered, recorded in the same statement. `run` is the run as last read; only its
   * unchanging fields are used. The event id, or null when the run was already final.
   */
  markSucceeded(
    orgId: string,
    run: AgentRun,
    output: string,
    describe: EventFactory<AgentRun>,
    logBefore: NewRunEvent[] = [],
    turn: NewRunTurnUsage | null = null,
  ): Promise<string | null> {
    const final = { status: 'succeeded', output, error: null } as const;
    return turn
      ? this.finish(orgId, run, final, describe, logBefore, this.finishes.withTurn, turn)
      : this.finish(orgId, run, final, describe, logBefore);
  }

  markFailed(orgId: string, run: AgentRun, error: string, describe: EventFactory<AgentRun>): Promise<string | null> {
    return this.finish(orgId, run, { status: 'failed', output: null, error }, describe);
  }

  /** → failed, only if it is still queued (a cancelled run that never started); as markFailed otherwise. */
  markFailedIfQueued(orgId: string, run: AgentRun, error: string, describe: EventFactory<AgentRun>): Promise<string | null> {
    return this.finish(orgId, run, { status: 'failed', output: null, error }, describe, [], this.finishes.fromQueued);
  }

  /** The id of the run's latest event if it was recorded but never announced (a retried final step), else null. */
  unannouncedEvent(orgId: string, runId: string): Promise<string | null> {
    return this.outbox.unannouncedEvent(this.db.manager, orgId, runId);
  }

  /**
   * The final state, its events in the run's log and its webhook event with the deliveries it owes, in
   * one statement on the pool (one round trip, atomic without a transaction). The events carry the run as
   * it ends; the database sets its new `updated_at`, which the statement writes into their `updated_at`.
   */
  private async finish(
    orgId: string,
    run: AgentRun,
    final: Pick<AgentRun, 'status' | 'output' | 'error'>,
    describe: EventFactory<AgentRun>,
    logBefore: NewRunEvent[] = [],
    finishing = this.finishes.fromQueuedOrRunning,
    turn: NewRunTurnUsage | null = null,
  ): Promise<string | null> {
    const event = describe(toAgentRun({ ...run, ...final }));
    // The run's log ends with its final status, carrying what the webhook event carries.
    const log = [...logBefore, { type: final.status, data: event.data }];
    return this.outbox.recordChange(this.db.manager, orgId, run.id, async ({ id }) => {
      const finish: Finish = { runId: run.id, orgId, final, log, eventId: id, event, turn };
      const [row] = await queryPool<{ finished: number; planned: number }>(this.db, finishing.text, finishing.values(finish));
      return row!.finished === 0 ? null : row!.planned;
    });
  }
}
