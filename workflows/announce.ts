import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, patched, proxyActivities, startChild, workflowInfo } from '@temporalio/workflow';
import {
  WORKFLOW_TYPES,
  pylonSearchAttributes,
  siblingTaskQueue,
  webhookRetrySummary,
  webhookRetryWorkflowId,
  type EventDelivered,
  type WebhookActivities,
} from '@pylon/contracts';

/** On the webhooks task queue, so slow receivers take webhook slots, never the slots of runs, documents or videos. */
function webhookActivities(taskQueue: string) {
  return proxyActivities<WebhookActivities>({
    taskQueue,
    // One attempt is bounded by WEBHOOK_ATTEMPT_TIMEOUT_MS (≤ 25 s); a worker that dies mid-way is noticed by its missing heartbeat.
    startToCloseTimeout: '1 minute',
    heartbeatTimeout: '10 seconds',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
  });
}

/**
 * Workflows that reached announce() when the delivery activity returned the ids to retry, and already
 * started the retries itself; their histories hold this patch's marker.
 */
const RETRIES_STARTED_BY_DELIVERY = 'webhook-retries-started-by-delivery';

/**
 * Delivers a recorded event (its deliveries were planned with it): the first attempt to every
 * endpoint at once, right now. The activity puts the deliveries that failed into the durable retry
 * schedule together, one `webhook-retry:<event_id>` workflow that outlives this one.
 */
export async function announce(orgId: string, eventId: string | null): Promise<void> {
  if (!eventId) return;
  const taskQueue = siblingTaskQueue(workflowInfo().taskQueue, 'webhooks');
  const delivered: EventDelivered | string[] = await webhookActivities(taskQueue).deliverEvent({ orgId, eventId });
  // Since the activity answers with a count, nothing is left to do here, and no patch is needed: patched()
  // would add a marker and a TemporalChangeVersion search-attribute update to every announcing history.
  if (!Array.isArray(delivered)) return;
  if (patched(RETRIES_STARTED_BY_DELIVERY) || delivered.length === 0) return;
  await startRetriesAsChild(orgId, eventId, delivered, taskQueue);
}

/** How histories recorded before the patch went on: the retry workflow as an abandoned child. */
async function startRetriesAsChild(orgId: string, eventId: string, retrying: string[], taskQueue: string): Promise<void> {
  try {
    await startChild(WORKFLOW_TYPES.webhookRetry, {
      workflowId: webhookRetryWorkflowId(eventId),
      taskQueue,
      args: [{ orgId, eventId, deliveryIds: retrying }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      typedSearchAttributes: pylonSearchAttributes(orgId, eventId),
      staticSummary: webhookRetrySummary(eventId, retrying.length),
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
