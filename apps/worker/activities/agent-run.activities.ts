import { Injectable } from '@nestjs/common';
import { ApplicationFailure } from '@temporalio/activity';
import {
  ErrorCode,
  NON_RETRYABLE_LLM_ERROR,
  RUN_ALREADY_FINISHED_ERROR,
  RUN_NOT_FOUND_ERROR,
  DEFAULT_ACTION_TIMEOUT_SECONDS,
  type ActionAnswer,
  type AgentRunActivities,
  type AgentRunWorkflowInput,
  type AgentTurn,
  type AnsweredTurn,
  type RepairInput,
  type RequiredActionRequest,
  type ToolCall,
  type TurnInput,
} from '@pylon/contracts';
import {
  AgentRunsService,
  KnowledgeSearchTool,
  ModelTurnService,
  OutputMismatchError,
  RequiredActionsService,
  RunAlreadyFinishedError,
  RunCannotPayError,
  RunEventsService,
  RunNotFoundError,
} from '@pylon/agent-runs';
import { LlmRequestRejectedError } from '@pylon/llm';
import { heartbeating } from './heartbeating';

/** The errors retrying cannot help, as the non-retryable failure types the workflow knows. */
function asActivityFailure(error: unknown): unknown {
  if (error instanceof RunNotFoundError) return ApplicationFailure.nonRetryable(error.message, RUN_NOT_FOUND_ERROR);
  if (error instanceof RunAlreadyFinishedError) return ApplicationFailure.nonRetryable(error.message, RUN_ALREADY_FINISHED_ERROR);
  if (error instanceof LlmRequestRejectedError) return ApplicationFailure.nonRetryable(error.message, NON_RETRYABLE_LLM_ERROR);
  // The run's error is the message: `insufficient_tokens`, or `output did not match the schema: …`.
  if (error instanceof RunCannotPayError) return ApplicationFailure.nonRetryable(ErrorCode.InsufficientTokens, error.name);
  if (error instanceof OutputMismatchError) return ApplicationFailure.nonRetryable(error.message, error.name);
  return error;
}

/** Thin adapters between the agent-run workflow and the agent-runs service. */
@Injectable()
export class AgentRunActivitiesImpl implements AgentRunActivities {
  constructor(
    private readonly runs: AgentRunsService,
    private readonly modelTurns: ModelTurnService,
    private readonly knowledgeSearch: KnowledgeSearchTool,
    private readonly runEvents: RunEventsService,
    private readonly actions: RequiredActionsService,
  ) {}

  /** Heartbeats while the model answers, so a worker that dies mid-call is noticed and a cancel reaches the call. */
  async takeTurn({ orgId, runId, heartbeatTimeoutSeconds, transcript, mcpTools }: TurnInput): Promise<AgentTurn> {
    return this.heartbeatingTurn(heartbeatTimeoutSeconds, (signal) => this.modelTurns.take(orgId, runId, { transcript, mcpTools }, signal));
  }

  async repairAnswer({ orgId, runId, heartbeatTimeoutSeconds, transcript, mcpTools, repair }: RepairInput): Promise<AnsweredTurn> {
    return this.heartbeatingTurn(heartbeatTimeoutSeconds, (signal) => this.modelTurns.repair(orgId, runId, { transcript, mcpTools, repair }, signal));
  }

  async runTool({ orgId, runId, call }: AgentRunWorkflowInput & { call: ToolCall }): Promise<string> {
    return this.knowledgeSearch.run(orgId, runId, call).catch((error: unknown) => {
      throw asActivityFailure(error);
    });
  }

  requireAction({
    orgId,
    runId,
    actionId,
    request,
    actionTimeoutSeconds,
  }: AgentRunWorkflowInput & { actionId: string; request: RequiredActionRequest }): Promise<string | null> {
    return this.actions.record(orgId, runId, actionId, request, actionTimeoutSeconds ?? DEFAULT_ACTION_TIMEOUT_SECONDS);
  }

  recordAnswer({
    orgId,
    actionId,
    calls,
    answer,
  }: AgentRunWorkflowInput & { actionId: string; calls: ToolCall[]; answer: ActionAnswer }): Promise<void> {
    return this.actions.recordAnswer(orgId, actionId, calls, answer);
  }

  expireAction({ orgId, actionId }: AgentRunWorkflowInput & { actionId: string }): Promise<void> {
    return this.actions.expire(orgId, actionId);
  }

  markRunFailed({ orgId, runId, error }: AgentRunWorkflowInput & { error: string }): Promise<string | null> {
    return this.runs.markFailed(orgId, runId, error);
  }

  purgeExpiredRunEvents(): Promise<number> {
    return this.runEvents.purgeExpired();
  }

  private async heartbeatingTurn<T>(heartbeatTimeoutSeconds: number, turn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    try {
      return await heartbeating((heartbeatTimeoutSeconds * 1000) / 3, turn);
    } catch (error) {
      throw asActivityFailure(error);
    }
  }
}
