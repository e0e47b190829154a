import { condition, defineSignal, proxyActivities, proxyLocalActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import { ATTEMPT_NOW_SIGNAL, DELIVERY_SCHEDULE_MS, RETRY_SIGNAL, type WebhookActivities, type WebhookEventInput } from '@pylon/contracts';

/**
 * The first attempts and the rounds of retries run as local activities, inside the workflow task that a timer
 * wakes: one task per round, on the webhooks worker. A worker that dies mid-round fails that workflow task,
 * and the retried task runs the round again (it attempts only what is still pending). One round is bounded by
 * WEBHOOK_ATTEMPT_TIMEOUT_MS (≤ 25 s); only a failure to record it is retried here.
 */
const rounds = proxyLocalActivities<WebhookActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
});

/**
 * A replay is an activity task: its result is in the history before the workflow goes on, so a signal that
 * arrives meanwhile (and fails the task that would have completed the workflow) never makes it POST twice.
 */
const replays = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
});

/** A replay: attempt this delivery now, once. */
export const attemptNow = defineSignal<[deliveryId: string]>(ATTEMPT_NOW_SIGNAL);
/** These deliveries failed their first attempt just now (the workflow was already running): retry them too. */
export const retry = defineSignal<[deliveryIds: string[]]>(RETRY_SIGNAL);

/**
 * The webhook workflow of one event (`webhook:<event_id>`): the retries of its deliveries whose first attempt
 * failed, together, at 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after the attempt before (durable timers),
 * each round attempting every one still pending at once; a 2xx delivers, a 410 disables its endpoint, and
 * what has no 2xx after the last attempt is failed. It makes the first attempts itself unless they were made
 * already (see WebhookEventInput), and answers replays: each `attemptNow` signal attempts its delivery once,
 * at once; a failed replay of a delivery that is not in the schedule leaves it failed.
 */
export async function webhookWorkflow({ orgId, eventId, retrying: firstFailed }: WebhookEventInput): Promise<{ failed: number; attempts: number }> {
  /** The deliveries on the schedule, and where they are on it: `attempt` attempts made, the last at `lastAt`. */
  let retrying: string[] = [];
  let attempt = 0;
  let lastAt = 0;
  const schedule = (deliveryIds: string[], at: number) => {
    if (deliveryIds.length === 0) return;
    if (retrying.length === 0) [attempt, lastAt] = [1, at];
    retrying = [...new Set([...retrying, ...deliveryIds])];
  };
  let failed = 0;
  const asked = new Set<string>();
  setHandler(attemptNow, (deliveryId) => void asked.add(deliveryId));
  setHandler(retry, (deliveryIds) => schedule(deliveryIds, Date.now()));

  // Started by the first attempts, with the first wait as its start delay: they were made when it was started.
  if (firstFailed) schedule(firstFailed, workflowInfo().startTime.getTime());
  else {
    const at = Date.now();
    schedule(await rounds.attemptEvent({ orgId, eventId }), at);
    attempt = 1;
  }

  for (;;) {
    if (retrying.length > 0 && attempt >= DELIVERY_SCHEDULE_MS.length) {
      const exhausted = retrying;
      retrying = [];
      await rounds.markDeliveriesFailed({ orgId, deliveryIds: exhausted, reason: `no 2xx after ${attempt} attempts` });
      failed += exhausted.length;
    }
    const dueAt = retrying.length > 0 ? lastAt + DELIVERY_SCHEDULE_MS[attempt]! : null;
    if (asked.size > 0) {
      const deliveryId = asked.values().next().value!;
      const scheduled = retrying.includes(deliveryId);
      const outcome = await replays.attemptDelivery({ orgId, deliveryId, nextAttemptInMs: scheduled ? Math.max(0, dueAt! - Date.now()) : null });
      // A replay asked for while this attempt ran is answered by this attempt.
      asked.delete(deliveryId);
      if (outcome !== 'retry') retrying = retrying.filter((id) => id !== deliveryId);
      else if (!scheduled) {
        await rounds.markDeliveriesFailed({ orgId, deliveryIds: [deliveryId], reason: 'no 2xx after 1 attempt' });
        failed++;
      }
      continue;
    }
    if (dueAt === null) break;
    // A replay's signal wakes it early (also during the start delay): it answers, then waits on for the round.
    if (dueAt > Date.now() && (await condition(() => asked.size > 0, dueAt - Date.now()))) continue;
    lastAt = Date.now();
    attempt++;
    const round = retrying;
    const again = await rounds.retryDeliveries({ orgId, deliveryIds: round, nextAttemptInMs: DELIVERY_SCHEDULE_MS[attempt] ?? null });
    // Deliveries that joined (the retry signal) while the round ran wait for the next one.
    retrying = [...again, ...retrying.filter((id) => !round.includes(id))];
  }
  return { failed, attempts: attempt };
}
