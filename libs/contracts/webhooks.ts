import { EVENT_TYPES } from './events';

/** Every event type an endpoint can subscribe to (an endpoint without a list receives all). */
export const WEBHOOK_EVENT_TYPES = Object.values(EVENT_TYPES);

/** The event "send test event" emits, to one endpoint only. */
export const WEBHOOK_TEST_EVENT = 'webhook_endpoint.test';

/** Every event type a delivery can carry: the subscribable ones and the test event (the delivery log filters by these). */
export const DELIVERY_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT];

/** Bulk recovery re-sends at most this many failed deliveries per call (the answer says when more remain). */
export const RECOVER_MAX_DELIVERIES = 1_000;
/** Bulk recovery looks back at most this far. */
export const RECOVER_MAX_AGE_DAYS = 30;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** When attempts happen, after the event: immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h later. */
export const DELIVERY_SCHEDULE_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;

export interface EventInput {
  eventId: string;
  orgId: string;
}

/**
 * What an event's webhook workflow (`webhook:<event_id>`) starts with. `retrying` absent: it makes the first
 * attempt of every delivery of the event itself (an event recorded by the API, a test event). Present: the
 * first attempts were made already (by the source workflow's deliverEvent activity) and these failed; the
 * workflow was started with the schedule's first wait as its start delay, so their 2nd attempt is due at
 * once. Empty: nothing to schedule (started by a replay, whose signal names the delivery).
 */
export interface WebhookEventInput extends EventInput {
  retrying?: string[];
}

export type AttemptOutcome = 'delivered' | 'retry' | 'gone' | 'stopped';

/** What the first attempts of an event came to. */
export interface EventDelivered {
  /** Deliveries that entered the retry schedule (their event's webhook workflow is started). */
  retrying: number;
}

/** Activities of the webhook workflow and of announce(). Workflows import this interface as a type only. */
export interface WebhookActivities {
  /**
   * The first attempt of every delivery of an event that has none yet, all at once, in the source workflow;
   * the deliveries that need the retry schedule enter it (their event's webhook workflow is started, its first
   * round due after the schedule's first wait). Repeating it after a crash attempts only what was missed.
   */
  deliverEvent(input: EventInput): Promise<EventDelivered>;
  /** The first attempt of every delivery of the event that has none yet, all at once; returns those to retry. */
  attemptEvent(input: EventInput): Promise<string[]>;
  /**
   * The next attempt of each of these deliveries that is still pending, all at once; returns those to
   * retry again (a replay may have delivered or failed one meanwhile: it is left alone).
   */
  retryDeliveries(input: { orgId: string; deliveryIds: string[]; nextAttemptInMs: number | null }): Promise<string[]>;
  /** Fails those of these deliveries that are still pending. */
  markDeliveriesFailed(input: { orgId: string; deliveryIds: string[]; reason: string }): Promise<void>;
  /** One signed POST of a delivery whatever its status (a replay), recorded whatever happens. */
  attemptDelivery(input: { orgId: string; deliveryId: string; nextAttemptInMs: number | null }): Promise<AttemptOutcome>;
}

/** Signal to an event's webhook workflow: attempt this delivery (its id) now, once (a replay). */
export const ATTEMPT_NOW_SIGNAL = 'attemptNow';
/** Signal to an event's webhook workflow: these deliveries (their ids) failed their first attempt just now; retry them on the schedule. */
export const RETRY_SIGNAL = 'retry';
