import { Injectable } from '@nestjs/common';
import { WORKFLOW_TYPES, agentRunWorkflowId, type AgentRunWorkflowInput } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { WorkflowStarter } from '@pylon/temporal';

/** The API's side of the agent-run workflow: start it once per run, or cancel it. */
@Injectable()
export class RunWorkflows {
  constructor(
    private readonly workflows: WorkflowStarter,
    private readonly config: PylonConfig,
  ) {}

  start(run: Omit<AgentRunWorkflowInput, 'heartbeatTimeoutSeconds'>): Promise<void> {
    const input: AgentRunWorkflowInput = { ...run, heartbeatTimeoutSeconds: this.config.llmHeartbeatTimeoutSeconds };
    return this.workflows.start({
      workflowType: WORKFLOW_TYPES.agentRun,
      workflowId: agentRunWorkflowId(input.runId),
      args: [input],
      orgId: input.orgId,
      resourceId: input.runId,
      summary: `Agent run ${input.runId}`,
    });
  }

  /** Requests cancellation; false when the run has no workflow. */
  cancel(runId: string): Promise<boolean> {
    return this.workflows.cancel(agentRunWorkflowId(runId));
  }
}
