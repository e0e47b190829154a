import { proxyActivities, proxyLocalActivities, sleep, type ActivityOptions, type LocalActivityOptions } from '@temporalio/workflow';
import { DELIVERY_SCHEDULE_MS, type EventRetryInput, type WebhookActivities } from '@pylon/contracts';

/** One round of attempts is bounded by WEBHOOK_ATTEMPT_TIMEOUT_MS (≤ 25 s); only a failure to record it is retried here. */
const roundOptions: ActivityOptions & LocalActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
};

/**
 * Where a round runs. A local activity, inside the workflow task that the timer wakes: one task per
 * round instead of three (workflow task, activity task, workflow task), on the webhooks worker either
 * way. A worker that dies mid-round fails that workflow task, and the retried task runs the round again.
 * The choice comes with the input rather than from patched(), whose marker and search-attribute update
 * would cost every retry workflow a visibility write.
 */
function rounds({ roundsInWorkflowTask }: EventRetryInput): WebhookActivities {
  if (roundsInWorkflowTask) return proxyLocalActivities<WebhookActivities>(roundOptions);
  return proxyActivities<WebhookActivities>({ ...roundOptions, heartbeatTimeout: '10 seconds' });
}

/**
 * The retries of an event's deliveries whose first attempt failed, together: 5 s, 5 min, 30 min, 2 h,
 * 5 h, 10 h and 10 h after the attempt before (durable timers), each round attempting every one still
 * pending at once. A 2xx delivers, a 410 disables its endpoint, and what has no 2xx after the last
 * attempt is failed. One workflow per event, however many endpoints failed. It is started with the first
 * wait as its start delay, so an event whose receivers are down costs no task until its first retry.
 */
export async function webhookRetryWorkflow(input: EventRetryInput): Promise<{ failed: number; attempts: number }> {
  const { orgId, deliveryIds, firstWaitWasStartDelay } = input;
  const deliver = rounds(input);
  let remaining = deliveryIds;
  let attempt = 1;
  while (remaining.length > 0 && attempt < DELIVERY_SCHEDULE_MS.length) {
    const startDelayWasTheWait = attempt === 1 && firstWaitWasStartDelay;
    if (!startDelayWasTheWait) await sleep(DELIVERY_SCHEDULE_MS[attempt]!);
    attempt++;
    remaining = await deliver.retryDeliveries({ orgId, deliveryIds: remaining, nextAttemptInMs: DELIVERY_SCHEDULE_MS[attempt] ?? null });
  }
  if (remaining.length > 0) await deliver.markDeliveriesFailed({ orgId, deliveryIds: remaining, reason: `no 2xx after ${attempt} attempts` });
  return { failed: remaining.length, attempts: attempt };
}
