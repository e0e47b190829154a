import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { isoTimestamp, returnedRows } from './sql';

/** One model turn of a run: the tokens it took, and what it cost the organisation. */
export interface RunTurnUsage {
  turn: number;
  model: string;
  inputTokens: number;
  outputTokens: number;
  countedBy: 'provider' | 'tokenizer';
  /** Service tokens debited for the turn (0 when free or not paid). */
  cost: number;
  /** False when the balance could not pay the turn (the run then failed with insufficient_tokens). */
  charged: boolean;
  ledgerEntryId: string | null;
  createdAt: string;
}

export type NewRunTurnUsage = Omit<RunTurnUsage, 'turn' | 'createdAt'>;

const TURN_COLUMNS = `turn, model, input_tokens AS "inputTokens", output_tokens AS "outputTokens", counted_by AS "countedBy",
  cost::float8 AS cost, charged, ledger_entry_id AS "ledgerEntryId", ${isoTimestamp('created_at')} AS "createdAt"`;

/**
 * The INSERT of a run's next turn, numbered after its last, for a statement whose parameters hold the
 * run's id at `$run`, its organisation's at `$org` and the turn's `turnParameters` from `$first` on: the
 * repository's own, or another that records the turn with what it ends in. Only for a run of that
 * organisation (nothing is written otherwise).
 */
export function insertTurn(run: number, org: number, first: number): string {
  const turn = Array.from({ length: 7 }, (_, index) => `$${first + index}`).join(', ');
  return `INSERT INTO agent_run_turns (run_id, turn, org_id, model, input_tokens, output_tokens, counted_by, cost, charged, ledger_entry_id)
         SELECT r.id, (SELECT COALESCE(MAX(t.turn), 0) + 1 FROM agent_run_turns t WHERE t.run_id = r.id), r.org_id, ${turn}
           FROM agent_runs r WHERE r.id = $${run} AND r.org_id = $${org}`;
}

/** The turn's values, in the order `insertTurn` takes them. */
export function turnParameters(usage: NewRunTurnUsage): unknown[] {
  return [usage.model, usage.inputTokens, usage.outputTokens, usage.countedBy, usage.cost, usage.charged, usage.ledgerEntryId];
}

/** The turns of agent runs (`agent_run_turns`): what each took and cost. */
@Injectable()
export class RunUsageRepository {
  constructor(private readonly db: DataSource) {}

  /** The run's next turn, numbered after its last; inside the caller's transaction (with the turn's debit) when given one. */
  async recordTurn(manager: EntityManager | null, orgId: string, runId: string, usage: NewRunTurnUsage): Promise<RunTurnUsage> {
    const [row] = returnedRows<RunTurnUsage>(
      await (manager ?? this.db.manager).query(`${insertTurn(1, 2, 3)} RETURNING ${TURN_COLUMNS}`, [runId, orgId, ...turnParameters(usage)]),
    );
    if (!row) throw new Error(`no agent run ${runId} in organisation ${orgId}`);
    return row;
  }

  turnsOfRun(orgId: string, runId: string): Promise<RunTurnUsage[]> {
    return this.db.query(`SELECT ${TURN_COLUMNS} FROM agent_run_turns WHERE org_id = $1 AND run_id = $2 ORDER BY turn`, [orgId, runId]);
  }
}
