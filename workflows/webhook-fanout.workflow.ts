import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import { WORKFLOW_TYPES, webhookDeliveryWorkflowId, type FanoutInput, type WebhookActivities } from '@pylon/contracts';

const store = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** One recorded event to every subscribed endpoint: a delivery row each, then a delivery workflow each. */
export async function webhookFanoutWorkflow(event: FanoutInput): Promise<{ deliveries: number }> {
  const deliveryIds = await store.planDeliveries(event);
  // All at once, in one workflow task: the last endpoint should not wait for the first ones.
  await Promise.all(
    deliveryIds.map(async (deliveryId) => {
      try {
        await startChild(WORKFLOW_TYPES.webhookDelivery, {
          workflowId: webhookDeliveryWorkflowId(deliveryId),
          args: [{ deliveryId, orgId: event.orgId }],
          parentClosePolicy: ParentClosePolicy.ABANDON,
        });
      } catch (error) {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
    }),
  );
  return { deliveries: deliveryIds.length };
}
