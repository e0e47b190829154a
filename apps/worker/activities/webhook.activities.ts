import { Injectable } from '@nestjs/common';
import { type AttemptOutcome, type EventDelivered, type EventInput, type WebhookActivities } from '@pylon/contracts';
import { WebhookDeliveryService } from '@pylon/webhooks';
import { heartbeating } from './heartbeating';

const HEARTBEAT_MS = 2_000;

/** Thin adapters between announce() and the webhook workflow, and the delivery service. */
@Injectable()
export class WebhookActivitiesImpl implements WebhookActivities {
  constructor(private readonly delivery: WebhookDeliveryService) {}

  /** Heartbeats while the POSTs are out, so a worker that dies mid-way is noticed in seconds and the event retried. */
  async deliverEvent({ orgId, eventId }: EventInput): Promise<EventDelivered> {
    const retrying = await heartbeating(HEARTBEAT_MS, () => this.delivery.deliverEvent(orgId, eventId));
    return { retrying: retrying.length };
  }

  /** The webhook workflow's activities, this and those below, are local ones (heartbeating() knows). */
  attemptEvent({ orgId, eventId }: EventInput): Promise<string[]> {
    return heartbeating(HEARTBEAT_MS, () => this.delivery.attemptEvent(orgId, eventId));
  }

  retryDeliveries({
    orgId,
    deliveryIds,
    nextAttemptInMs,
  }: {
    orgId: string;
    deliveryIds: string[];
    nextAttemptInMs: number | null;
  }): Promise<string[]> {
    return heartbeating(HEARTBEAT_MS, () => this.delivery.retryDeliveries(orgId, deliveryIds, nextAttemptInMs));
  }

  markDeliveriesFailed({ orgId, deliveryIds, reason }: { orgId: string; deliveryIds: string[]; reason: string }): Promise<void> {
    return this.delivery.markDeliveriesFailed(orgId, deliveryIds, reason);
  }

  attemptDelivery({
    orgId,
    deliveryId,
    nextAttemptInMs,
  }: {
    orgId: string;
    deliveryId: string;
    nextAttemptInMs: number | null;
  }): Promise<AttemptOutcome> {
    return this.delivery.attemptDelivery(orgId, deliveryId, nextAttemptInMs);
  }
}
