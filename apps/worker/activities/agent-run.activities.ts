import { Injectable } from '@nestjs/common';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { PylonConfig } from '@pylon/config';
import {
  NON_RETRYABLE_LLM_ERROR,
  RUN_NOT_FOUND_ERROR,
  type AgentRunActivities,
  type AgentRunPlan,
  type AgentRunWorkflowInput,
} from '@pylon/contracts';
import { AgentRepository, AgentRunRepository } from '@pylon/db';
import { LlmRequestRejectedError, LlmService } from '@pylon/llm';

/** Thin adapters between the agent-run workflow and the run projection and LLM services. */
@Injectable()
export class AgentRunActivitiesImpl implements AgentRunActivities {
  constructor(
    private readonly runs: AgentRunRepository,
    private readonly agents: AgentRepository,
    private readonly llm: LlmService,
    private readonly config: PylonConfig,
  ) {}

  async markRunRunning({ orgId, runId }: AgentRunWorkflowInput): Promise<AgentRunPlan> {
    const run = await this.runs.markRunning(orgId, runId);
    if (!run) throw ApplicationFailure.nonRetryable(`run ${runId} does not exist`, RUN_NOT_FOUND_ERROR);
    const version = await this.agents.findVersion(orgId, run.agentVersionId);
    return {
      executable: run.status === 'running',
      runTimeoutSeconds: version?.runTimeoutSeconds ?? this.config.defaultRunTimeoutSeconds,
      heartbeatTimeoutSeconds: this.config.llmHeartbeatTimeoutSeconds,
    };
  }

  async generateRunOutput({ orgId, runId }: AgentRunWorkflowInput): Promise<string> {
    const run = await this.runs.findById(orgId, runId);
    const version = run && (await this.agents.findVersion(orgId, run.agentVersionId));
    if (!run || !version) throw ApplicationFailure.nonRetryable(`run ${runId} does not exist`, RUN_NOT_FOUND_ERROR);
    const context = Context.current();
    const heartbeat = setInterval(() => context.heartbeat(), (this.config.llmHeartbeatTimeoutSeconds * 1000) / 3);
    try {
      return await this.llm.generate(version.model, {
        orgId,
        instructions: version.instructions,
        input: run.input,
        temperature: version.temperature,
        maxOutputTokens: version.maxOutputTokens,
        signal: context.cancellationSignal,
      });
    } catch (error) {
      if (error instanceof LlmRequestRejectedError) {
        throw ApplicationFailure.nonRetryable(error.message, NON_RETRYABLE_LLM_ERROR);
      }
      throw error;
    } finally {
      clearInterval(heartbeat);
    }
  }

  async markRunSucceeded({ orgId, runId, output }: AgentRunWorkflowInput & { output: string }): Promise<void> {
    await this.runs.markSucceeded(orgId, runId, output);
  }

  async markRunFailed({ orgId, runId, error }: AgentRunWorkflowInput & { error: string }): Promise<void> {
    await this.runs.markFailed(orgId, runId, error);
  }
}
