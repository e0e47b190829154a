import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import { ATTEMPT_NOW_SIGNAL, DELIVERY_SCHEDULE_MS, type DeliveryInput, type WebhookActivities } from '@pylon/contracts';

/**
 * One attempt is one HTTP POST, bounded by its own timeout (WEBHOOK_ATTEMPT_TIMEOUT_MS, 15 s); only a
 * failure to record it is retried here, and a worker that dies mid-attempt is noticed within 30 s.
 */
const deliver = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
});

export const attemptNow = defineSignal(ATTEMPT_NOW_SIGNAL);

/**
 * One delivery on its own (a test event, or a replay asked for through the API): attempt at once, then
 * after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (durable timers; a replay signal attempts early).
 * A 2xx delivers; a 410 disables the endpoint; after the last attempt the delivery is failed. A replay
 * makes one attempt.
 */
export async function webhookDeliveryWorkflow(delivery: DeliveryInput): Promise<{ outcome: string; attempts: number }> {
  let early = false;
  setHandler(attemptNow, () => {
    early = true;
  });
  const schedule = delivery.replay ? [0] : [...DELIVERY_SCHEDULE_MS];
  for (let i = 0; i < schedule.length; i++) {
    if (schedule[i]! > 0) {
      await condition(() => early, schedule[i]!);
      early = false;
    }
    // A replay asked for while this attempt runs is answered by this attempt.
    early = false;
    const next = schedule[i + 1];
    const outcome = await deliver.attemptDelivery({ ...delivery, attempt: i + 1, nextAttemptInMs: next ?? null });
    if (outcome !== 'retry') return { outcome, attempts: i + 1 };
  }
  if (delivery.stillScheduled) return { outcome: 'retry', attempts: schedule.length };
  await deliver.markDeliveryFailed({ ...delivery, reason: `no 2xx after ${schedule.length} attempt${schedule.length === 1 ? '' : 's'}` });
  return { outcome: 'failed', attempts: schedule.length };
}
