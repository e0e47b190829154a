import { Injectable, Logger } from '@nestjs/common';
import { AgentRun, AgentVersion } from '@pylon/db';
import { estimateInputTokens, estimateTokens, LlmService, type LlmRequest, type ToolSpec } from '@pylon/llm';
import { ConversationCompactor } from './conversation-compaction';
import { compactionPlan, conversationHistory, type ConversationHistory } from './conversation-history';
import { ConversationRepository, type ConversationItem } from './repositories/conversation.repository';
import { RunEventsService } from './run-events.service';

/** Tokens kept free of the history for the model's answer when the version sets no max_output_tokens. */
const ANSWER_RESERVE_TOKENS = 4_096;
/** A summary of the earliest turns takes at most this fraction (1/n) of the history's budget. */
const SUMMARY_SHARE = 4;
/**
 * The provider is asked to count only when the rough count says the history takes more than this share of its
 * room: below it, no plausible error in the estimate could make it not fit, and the turn makes no extra call.
 */
const COUNT_FROM_SHARE = 0.5;
/** A provider's count scales the estimate by at most this factor either way (a count far outside is not trusted). */
const MAX_SCALE = 8;

/** What the turn is: the run, its version and model, the key it runs on, the tools it offers. */
export interface TurnContext {
  run: AgentRun;
  version: AgentVersion;
  model: string;
  apiKey: string | undefined;
  tools: ToolSpec[];
  /** Only a run's first model turn compacts and records its history. */
  firstTurn: boolean;
}

/**
 * The conversation's earlier turns as a turn's model sees them, within what its context leaves after the
 * instructions, the input and the answer. Items are budgeted by a rough count (four characters a token); when
 * that count comes near the room, the model's provider counts the whole request itself where it can (Anthropic's,
 * OpenAI's and Gemini's count endpoints), and its count scales the budget. On a run's first model turn, a
 * history that no longer fits has its oldest turns folded into a summary (a `compaction` item the later turns see
 * instead of them), and the run's log records how many items the model saw, how many were left out, how many were
 * folded, and who counted.
 */
@Injectable()
export class ConversationContext {
  private readonly logger = new Logger(ConversationContext.name);

  constructor(
    private readonly conversations: ConversationRepository,
    private readonly llm: LlmService,
    private readonly compactor: ConversationCompactor,
    private readonly runEvents: RunEventsService,
  ) {}

  async history(turn: TurnContext, signal: AbortSignal): Promise<ConversationHistory> {
    const { run, version, model, firstTurn } = turn;
    if (!run.conversationId || run.conversationSeq === null) return { entries: [], included: 0, omitted: 0 };
    const read = () => this.conversations.itemsBeforeTurn(run.orgId, run.conversationId!, run.conversationSeq!);
    let items = await read();
    const room = Math.max(this.llm.contextTokens(model) - (version.maxOutputTokens ?? ANSWER_RESERVE_TOKENS), 0);
    const counted = await this.providerScale(turn, items, room, signal);
    const budget = Math.max(Math.floor(room / counted.scale) - estimateTokens(version.instructions) - estimateTokens(run.input), 0);
    const plan = firstTurn ? compactionPlan(items, budget) : null;
    if (plan) {
      const summariser = version.compactionModel ?? model;
      const summary = await this.compactor.summarise(run.orgId, run.id, summariser, plan, Math.max(Math.floor(budget / SUMMARY_SHARE), 64), signal);
      await this.conversations.appendItems(run.orgId, run.id, [
        { type: 'compaction', data: { text: summary, turns_before: plan.turnsBefore, items: plan.items.length, model: summariser } },
      ]);
      items = await read();
    }
    const history = conversationHistory(items, budget);
    if (firstTurn) await this.runEvents.recordHistory(run.orgId, run.id, history.included, history.omitted, plan?.items.length ?? 0, counted.by);
    return history;
  }

  /**
   * How many of the provider's tokens one estimated token is, for this request: 1 (`estimate`) unless the
   * history comes near the room and the provider counts it (`provider`). A count that fails leaves the estimate:
   * counting is never a reason for a turn to fail.
   */
  private async providerScale(
    turn: TurnContext,
    items: readonly ConversationItem[],
    room: number,
    signal: AbortSignal,
  ): Promise<{ scale: number; by: 'provider' | 'estimate' }> {
    const estimate = { scale: 1, by: 'estimate' as const };
    if (!this.llm.countsTokens(turn.model) || items.length === 0) return estimate;
    const request: Omit<LlmRequest, 'model'> = {
      orgId: turn.run.orgId,
      ...(turn.apiKey !== undefined && { apiKey: turn.apiKey }),
      instructions: turn.version.instructions,
      input: turn.run.input,
      temperature: null,
      maxOutputTokens: null,
      tools: turn.tools,
      responseFormat: turn.version.responseFormat,
      history: conversationHistory(items, Number.POSITIVE_INFINITY).entries,
      transcript: [],
      signal,
    };
    const estimated = estimateInputTokens({ ...request, model: turn.model });
    if (estimated <= room * COUNT_FROM_SHARE) return estimate;
    try {
      const tokens = await this.llm.countInputTokens(turn.model, request);
      if (!tokens || tokens <= 0) return estimate;
      return { scale: Math.min(Math.max(tokens / estimated, 1 / MAX_SCALE), MAX_SCALE), by: 'provider' };
    } catch (error) {
      signal.throwIfAborted();
      this.logger.warn(`run ${turn.run.id}: ${turn.model} could not count the history's tokens (${(error as Error).message}); estimated instead`);
      return estimate;
    }
  }
}
