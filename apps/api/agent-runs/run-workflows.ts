import { Injectable } from '@nestjs/common';
import { Client, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { WORKFLOW_TYPES, agentRunWorkflowId, type AgentRunWorkflowInput } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { pylonSearchAttributes } from '@pylon/temporal';

/** The API's side of the agent-run workflow: start it once per run, or cancel it. */
@Injectable()
export class RunWorkflows {
  constructor(
    private readonly temporal: Client,
    private readonly config: PylonConfig,
  ) {}

  /** Starts the run's workflow; a workflow that already exists for the run is success, not an error. */
  async start(input: AgentRunWorkflowInput): Promise<void> {
    try {
      await this.temporal.workflow.start(WORKFLOW_TYPES.agentRun, {
        workflowId: agentRunWorkflowId(input.runId),
        taskQueue: this.config.temporalTaskQueue,
        args: [input],
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        typedSearchAttributes: pylonSearchAttributes(input.orgId, input.runId),
        staticSummary: `Agent run ${input.runId}`,
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }

  /** Requests cancellation; false when the run has no workflow. */
  async cancel(runId: string): Promise<boolean> {
    try {
      await this.temporal.workflow.getHandle(agentRunWorkflowId(runId)).cancel();
      return true;
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return false;
      throw error;
    }
  }
}
