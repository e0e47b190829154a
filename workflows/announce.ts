import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, startChild } from '@temporalio/workflow';
import { WORKFLOW_TYPES, webhookFanoutWorkflowId } from '@pylon/contracts';

/**
 * Hands a recorded event to its webhook fan-out, which outlives this workflow (ABANDON) and runs on
 * its own, so delivering to many endpoints never delays the job that emitted the event.
 */
export async function announce(orgId: string, eventId: string | null): Promise<void> {
  if (!eventId) return;
  try {
    await startChild(WORKFLOW_TYPES.webhookFanout, {
      workflowId: webhookFanoutWorkflowId(eventId),
      args: [{ eventId, orgId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
