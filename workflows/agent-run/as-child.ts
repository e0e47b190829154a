import { ParentClosePolicy, executeChild } from '@temporalio/workflow';
import { agentRunWorkflowId, pylonSearchAttributes, type RunStart } from '@pylon/contracts';
import { agentRunWorkflow } from '../agent-run.workflow';

/**
 * A run as the child of the workflow that took it (a conversation, a schedule's firing), on the lane and with
 * the fairness weight the API chose; it outlives its parent if the parent is ever terminated. Its end, whatever
 * it is, the run records itself.
 */
export async function runAsChild(orgId: string, runId: string, start: RunStart): Promise<void> {
  await executeChild(agentRunWorkflow, {
    workflowId: agentRunWorkflowId(runId),
    args: [start.input],
    taskQueue: start.taskQueue,
    priority: { fairnessKey: orgId, ...(start.fairnessWeight ? { fairnessWeight: start.fairnessWeight } : {}) },
    typedSearchAttributes: pylonSearchAttributes(orgId, runId),
    staticSummary: start.summary,
    parentClosePolicy: ParentClosePolicy.ABANDON,
  }).catch(() => undefined);
}
