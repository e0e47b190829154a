import type { SubscriptionFilter } from '@pylon/db';

/**
 * Who receives an event: its organisation's enabled endpoints subscribed to its type, and those with no
 * list of events (they receive every type). The database's outbox plans a delivery to each when it
 * records the event (DbModule.forRoot).
 */
export const webhookSubscriptionFilter: SubscriptionFilter = ({ endpoint, event }) =>
  `${endpoint}.enabled AND (${endpoint}.events IS NULL OR ${event}.type = ANY (${endpoint}.events))`;
