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

/** The deliveries of one event whose first attempt failed: they follow the retry schedule together. */
export interface EventRetryInput extends EventInput {
  deliveryIds: string[];
  /**
   * Started with the schedule's first wait as its start delay (by the activity that made the first
   * attempts), so its first round is due at once. Workflows started before this existed wait themselves.
   */
  firstWaitWasStartDelay?: boolean;
  /**
   * Each round runs as a local activity inside the workflow task its timer wakes. Workflows started
   * before this existed ran their rounds as activity tasks, and their histories must replay that way.
   */
  roundsInWorkflowTask?: boolean;
}

export interface DeliveryInput {
  deliveryId: string;
  orgId: string;
  /** A replay asked for through the API: one attempt, now. */
  replay?: boolean;
  /** The replayed delivery is pending, with retries of its event still to come: a failed replay does not fail it. */
  stillScheduled?: boolean;
}

export type AttemptOutcome = 'delivered' | 'retry' | 'gone' | 'stopped';

/**
 * What the first attempts of an event came to. Histories recorded before it existed hold a list of the
 * delivery ids to retry instead, which their workflow then scheduled itself (announce() tells them apart).
 */
export interface EventDelivered {
  /** Deliveries that entered the retry schedule (their event's retry workflow is started). */
  retrying: number;
}

/** Activities of the webhook workflows. Workflows import this interface as a type only. */
export interface WebhookActivities {
  /**
   * The first attempt of every delivery of an event that has none yet, all at once; the deliveries that
   * need the retry schedule enter it (their event's retry workflow is started, its first round due after
   * the schedule's first wait). Repeating it after a crash attempts only what was missed.
   */
  deliverEvent(input: EventInput): Promise<EventDelivered>;
  /**
   * The next attempt of each of these deliveries that is still pending, all at once; returns those to
   * retry again (a replay may have delivered or failed one meanwhile: it is left alone).
   */
  retryDeliveries(input: { orgId: string; deliveryIds: string[]; nextAttemptInMs: number | null }): Promise<string[]>;
  markDeliveriesFailed(input: { orgId: string; deliveryIds: string[]; reason: string }): Promise<void>;
  /** One signed POST, recorded whatever happens. */
  attemptDelivery(input: DeliveryInput & { attempt: number; nextAttemptInMs: number | null }): Promise<AttemptOutcome>;
  markDeliveryFailed(input: DeliveryInput & { reason: string }): Promise<void>;
}

/** Signal to a delivery waiting for its next attempt: attempt now. */
export const ATTEMPT_NOW_SIGNAL = 'attemptNow';
