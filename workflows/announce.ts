import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import { siblingTaskQueue, type WebhookActivities } from '@pylon/contracts';

/**
 * Delivers a recorded event (its deliveries were planned with it): the first attempt to every endpoint at
 * once, right now, in an activity on the webhooks task queue, so slow receivers take webhook slots, never
 * the slots of runs, documents or videos. The activity puts the deliveries that failed into the durable
 * retry schedule together: the event's webhook workflow, `webhook:<event_id>`, which outlives this one.
 */
export async function announce(orgId: string, eventId: string | null): Promise<void> {
  if (!eventId) return;
  const { deliverEvent } = proxyActivities<WebhookActivities>({
    taskQueue: siblingTaskQueue(workflowInfo().taskQueue, 'webhooks'),
    // One attempt is bounded by WEBHOOK_ATTEMPT_TIMEOUT_MS (≤ 25 s); a worker that dies mid-way is noticed by its missing heartbeat.
    startToCloseTimeout: '1 minute',
    heartbeatTimeout: '10 seconds',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
  });
  await deliverEvent({ orgId, eventId });
}
