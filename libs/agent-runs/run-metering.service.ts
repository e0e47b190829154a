import { Injectable } from '@nestjs/common';
import { PylonError, ErrorCode, type TurnUsage } from '@pylon/contracts';
import { AgentRunRepository } from './repositories/agent-run.repository';
import { RunUsageRepository, type NewRunTurnUsage, type RunTurnUsage } from './repositories/run-usage.repository';
import { Transactions } from '@pylon/db';
import { InsufficientTokensError, LedgerService, ModelPricesService, type PriceInEffect } from '@pylon/ledger';
import { ModelCredentialsService, type KeySource } from '@pylon/model-credentials';
import { RunCannotPayError } from './run-errors';

/** A run's model turns and their total, as `GET /api/v1/agent-runs/{id}/usage` shows them. */
export interface RunUsage {
  turns: RunTurnUsage[];
  inputTokens: number;
  outputTokens: number;
  /** Service tokens the organisation paid for the run: the sum of its charged turns. */
  chargedTokens: number;
}

/**
 * What runs cost: every model turn is recorded with its tokens and debited from the organisation's
 * ledger at its model's price in the same transaction, the debit naming the run. A debit is one
 * conditional UPDATE, so no number of concurrent turns takes a balance below zero; a turn the balance
 * cannot pay is recorded unpaid and fails its run with insufficient_tokens.
 */
@Injectable()
export class RunMeteringService {
  constructor(
    private readonly prices: ModelPricesService,
    private readonly ledger: LedgerService,
    private readonly turns: RunUsageRepository,
    private readonly transactions: Transactions,
    private readonly runs: AgentRunRepository,
    private readonly credentials: ModelCredentialsService,
  ) {}

  /** A create of a run on a priced model with nothing on the balance: 402, as for videos. */
  async admit(orgId: string, modelId: string): Promise<void> {
    const onOwnKey = await this.credentials.hasOwnKey(orgId, modelId);
    if (await this.cannotPay(orgId, await this.priceFor(orgId, modelId, onOwnKey ? 'organization' : 'operator'))) {
      throw new PylonError(ErrorCode.InsufficientTokens, `the organisation has no tokens to pay for ${modelId}; grant tokens first`);
    }
  }

  /** The price a run's turns are charged at, read once per model turn: a turn on the organisation's own key pays only its own prices. */
  priceFor(orgId: string, modelId: string, keySource: KeySource | null): Promise<PriceInEffect> {
    return this.prices.priceFor(orgId, modelId, keySource === 'organization');
  }

  /** Before a model turn: a run on a priced model whose balance is empty fails rather than calling the model. */
  async requireCanPay(orgId: string, runId: string, price: PriceInEffect): Promise<void> {
    if (await this.cannotPay(orgId, price)) throw new RunCannotPayError(runId);
  }

  /**
   * A turn that costs nothing debits nothing, so the statement that records what the turn ends in (the
   * run's answer) can record it too: its row, or null for a priced turn, which `recordTurn` debits now.
   */
  freeTurn(modelId: string, price: PriceInEffect, usage: TurnUsage, keySource: KeySource | null): NewRunTurnUsage | null {
    const cost = this.prices.costOf(price, usage);
    return cost === 0 ? { model: modelId, ...usage, keySource, cost, charged: true, ledgerEntryId: null } : null;
  }

  /**
   * Records the turn and debits its cost in one transaction (a free turn: one INSERT); throws
   * RunCannotPayError when the balance could not pay it.
   */
  async recordTurn(
    orgId: string,
    runId: string,
    modelId: string,
    price: PriceInEffect,
    usage: TurnUsage,
    keySource: KeySource | null,
  ): Promise<RunTurnUsage> {
    const free = this.freeTurn(modelId, price, usage, keySource);
    if (free) return this.turns.recordTurn(null, orgId, runId, free);
    const cost = this.prices.costOf(price, usage);
    const turn = await this.transactions.run(async (manager) => {
      let ledgerEntryId: string | null = null;
      let charged = true;
      try {
        const reason = `model turn of agent run ${runId}: ${modelId}, ${usage.inputTokens} input + ${usage.outputTokens} output tokens`;
        ledgerEntryId = (await this.ledger.debitWithin(manager, orgId, cost, { type: 'agent_run', id: runId }, reason)).id;
      } catch (error) {
        if (!(error instanceof InsufficientTokensError)) throw error;
        charged = false;
      }
      return this.turns.recordTurn(manager, orgId, runId, { model: modelId, ...usage, keySource, cost, charged, ledgerEntryId });
    });
    if (!turn.charged) throw new RunCannotPayError(runId);
    return turn;
  }

  /** 404 for a run that is not the organisation's. */
  async usageOf(orgId: string, runId: string): Promise<RunUsage> {
    if (!(await this.runs.findById(orgId, runId))) throw PylonError.notFound('no such run');
    const turns = await this.turns.turnsOfRun(orgId, runId);
    return {
      turns,
      inputTokens: turns.reduce((sum, turn) => sum + turn.inputTokens, 0),
      outputTokens: turns.reduce((sum, turn) => sum + turn.outputTokens, 0),
      chargedTokens: turns.reduce((sum, turn) => sum + (turn.charged ? turn.cost : 0), 0),
    };
  }

  /** A priced model and an empty balance: not even the smallest turn can be paid. */
  private async cannotPay(orgId: string, price: PriceInEffect): Promise<boolean> {
    return this.prices.isPriced(price) && (await this.ledger.balance(orgId)) <= 0;
  }
}
