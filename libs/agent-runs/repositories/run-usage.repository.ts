import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { isoTimestamp, returnedRows, parameter, statement, type Parameter, type Parameters } from '@pylon/db';

/** One model turn of a run: the tokens it took, and what it cost the organisation. */
export interface RunTurnUsage {
  turn: number;
  model: string;
  inputTokens: number;
  outputTokens: number;
  countedBy: 'provider' | 'tokenizer';
  /** Of the input tokens, those read from the provider's prompt cache (0 when it does not say). */
  cachedInputTokens: number;
  /** Of the output tokens, those spent reasoning (0 when the provider does not say). */
  reasoningTokens: number;
  /** Whose key the turn ran on: the organisation's own, the operator's, or none (an offline model, a server that takes no key). */
  keySource: 'organization' | 'operator' | null;
  /** Service tokens debited for the turn (0 when free or not paid). */
  cost: number;
  /** False when the balance could not pay the turn (the run then failed with insufficient_tokens). */
  charged: boolean;
  ledgerEntryId: string | null;
  createdAt: string;
}

export type NewRunTurnUsage = Omit<RunTurnUsage, 'turn' | 'createdAt' | 'cachedInputTokens' | 'reasoningTokens'> &
  Partial<Pick<RunTurnUsage, 'cachedInputTokens' | 'reasoningTokens'>>;

const TURN_COLUMNS = `turn, model, input_tokens AS "inputTokens", output_tokens AS "outputTokens", counted_by AS "countedBy",
  cached_input_tokens AS "cachedInputTokens", reasoning_tokens AS "reasoningTokens",
  key_source AS "keySource", cost::float8 AS cost, charged, ledger_entry_id AS "ledgerEntryId", ${isoTimestamp('created_at')} AS "createdAt"`;

/** The parameters of a turn's usage, read by `usage` from a statement's input: a group for `insertTurn`. */
export function turnUsage<In>(usage: (input: In) => NewRunTurnUsage) {
  return {
    model: parameter<In>('text', (input) => usage(input).model),
    inputTokens: parameter<In>('integer', (input) => usage(input).inputTokens),
    outputTokens: parameter<In>('integer', (input) => usage(input).outputTokens),
    countedBy: parameter<In>('text', (input) => usage(input).countedBy),
    cachedInputTokens: parameter<In>('integer', (input) => usage(input).cachedInputTokens ?? 0),
    reasoningTokens: parameter<In>('integer', (input) => usage(input).reasoningTokens ?? 0),
    keySource: parameter<In>('text', (input) => usage(input).keySource),
    cost: parameter<In>('bigint', (input) => usage(input).cost),
    charged: parameter<In>('boolean', (input) => usage(input).charged),
    ledgerEntryId: parameter<In>('uuid', (input) => usage(input).ledgerEntryId),
  };
}

/**
 * The INSERT of a run's next turn, numbered after its last: the run `run` of organisation `org`, with the turn's
 * `usage` (a `turnUsage` group), for the repository's own statement or another that records the turn with what it
 * ends in. Only for a run of that organisation (nothing is written otherwise).
 */
export function insertTurn(part: { run: Parameter; org: Parameter; usage: Parameters<ReturnType<typeof turnUsage>> }): string {
  const { usage } = part;
  return `INSERT INTO agent_run_turns (run_id, turn, org_id, model, input_tokens, output_tokens, counted_by,
                                     cached_input_tokens, reasoning_tokens, key_source, cost, charged, ledger_entry_id)
         SELECT r.id, (SELECT COALESCE(MAX(t.turn), 0) + 1 FROM agent_run_turns t WHERE t.run_id = r.id), r.org_id,
                ${usage.model}, ${usage.inputTokens}, ${usage.outputTokens}, ${usage.countedBy},
                ${usage.cachedInputTokens}, ${usage.reasoningTokens}, ${usage.keySource}, ${usage.cost}, ${usage.charged}, ${usage.ledgerEntryId}
           FROM agent_runs r WHERE r.id = ${part.run} AND r.org_id = ${part.org}`;
}

type RecordTurn = { runId: string; orgId: string; usage: NewRunTurnUsage };

const RECORD_TURN = statement<RecordTurn>()(
  {
    runId: parameter('uuid', (input) => input.runId),
    orgId: parameter('uuid', (input) => input.orgId),
    usage: turnUsage<RecordTurn>((input) => input.usage),
  },
  (p) => `${insertTurn({ run: p.runId, org: p.orgId, usage: p.usage })} RETURNING ${TURN_COLUMNS}`,
);

/** The turns of agent runs (`agent_run_turns`): what each took and cost. */
@Injectable()
export class RunUsageRepository {
  constructor(private readonly db: DataSource) {}

  /** The run's next turn, numbered after its last; inside the caller's transaction (with the turn's debit) when given one. */
  async recordTurn(manager: EntityManager | null, orgId: string, runId: string, usage: NewRunTurnUsage): Promise<RunTurnUsage> {
    const [row] = returnedRows<RunTurnUsage>(await (manager ?? this.db.manager).query(RECORD_TURN.text, RECORD_TURN.values({ runId, orgId, usage })));
    if (!row) throw new Error(`no agent run ${runId} in organisation ${orgId}`);
    return row;
  }

  turnsOfRun(orgId: string, runId: string): Promise<RunTurnUsage[]> {
    return this.db.query(`SELECT ${TURN_COLUMNS} FROM agent_run_turns WHERE org_id = $1 AND run_id = $2 ORDER BY turn`, [orgId, runId]);
  }
}
