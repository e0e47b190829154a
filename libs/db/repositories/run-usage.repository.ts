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

/** The turns of agent runs (`agent_run_turns`): what each took and cost. */
@Injectable()
export class RunUsageRepository {
  constructor(private readonly db: DataSource) {}

  /** The run's next turn, numbered after its last; inside the caller's transaction (with the turn's debit) when given one. */
  async recordTurn(manager: EntityManager | null, orgId: string, runId: string, usage: NewRunTurnUsage): Promise<RunTurnUsage> {
    const [row] = returnedRows<RunTurnUsage>(
      await (manager ?? this.db.manager).query(
        `INSERT INTO agent_run_turns (run_id, turn, org_id, model, input_tokens, output_tokens, counted_by, cost, charged, ledger_entry_id)
         SELECT $1, COALESCE(MAX(turn), 0) + 1, $2, $3, $4, $5, $6, $7, $8, $9 FROM agent_run_turns WHERE run_id = $1
         RETURNING ${TURN_COLUMNS}`,
        [runId, orgId, usage.model, usage.inputTokens, usage.outputTokens, usage.countedBy, usage.cost, usage.charged, usage.ledgerEntryId],
      ),
    );
    return row!;
  }

  turnsOfRun(orgId: string, runId: string): Promise<RunTurnUsage[]> {
    return this.db.query(`SELECT ${TURN_COLUMNS} FROM agent_run_turns WHERE org_id = $1 AND run_id = $2 ORDER BY turn`, [orgId, runId]);
  }
}
