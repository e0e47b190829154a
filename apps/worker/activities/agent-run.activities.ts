import { Injectable } from '@nestjs/common';
import {
  DEFAULT_ACTION_TIMEOUT_SECONDS,
  type AcceptedAnswer,
  type AgentRunActivities,
  type AgentRunWorkflowInput,
  type AgentTurn,
  type AnsweredTurn,
  type RepairInput,
  type RequiredActionRequest,
  type ToolCall,
  type TurnInput,
  type ModelFallback,
} from '@pylon/contracts';
import { AgentRunsService, KnowledgeSearchTool, ModelTurnService, RequiredActionsService, RunEventsService } from '@pylon/agent-runs';
import { heartbeating } from './heartbeating';

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
  async takeTurn({ orgId, runId, heartbeatTimeoutSeconds, transcript, mcpTools, answered, model }: TurnInput): Promise<AgentTurn> {
    return this.heartbeatingTurn(heartbeatTimeoutSeconds, (signal) =>
      this.modelTurns.take(orgId, runId, { transcript, mcpTools, ...(answered && { answered }), ...(model && { model }) }, signal),
    );
  }

  async repairAnswer({ orgId, runId, heartbeatTimeoutSeconds, transcript, mcpTools, repair, model }: RepairInput): Promise<AnsweredTurn> {
    return this.heartbeatingTurn(heartbeatTimeoutSeconds, (signal) =>
      this.modelTurns.repair(orgId, runId, { transcript, mcpTools, repair, ...(model && { model }) }, signal),
    );
  }

  recordModelFallback({ orgId, runId, from, to, reason }: AgentRunWorkflowInput & ModelFallback): Promise<void> {
    return this.runEvents.recordModelFallback(orgId, runId, { from, to, reason });
  }

  runTool({ orgId, runId, call }: AgentRunWorkflowInput & { call: ToolCall }): Promise<string> {
    return this.knowledgeSearch.run(orgId, runId, call);
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

  recordAnswer({ orgId, actionId, calls, answer }: AgentRunWorkflowInput & AcceptedAnswer): Promise<void> {
    return this.actions.recordAnswer(orgId, { actionId, calls, answer });
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

  private heartbeatingTurn<T>(heartbeatTimeoutSeconds: number, turn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return heartbeating((heartbeatTimeoutSeconds * 1000) / 3, turn);
  }
}
