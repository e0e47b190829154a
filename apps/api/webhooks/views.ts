import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '@pylon/db';
import type { WebhookDeliveryView, WebhookEndpointView } from './dto/webhooks.dto';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toEndpointView(endpoint: WebhookEndpoint): WebhookEndpointView {
  return {
    endpoint_id: endpoint.id,
    org_id: endpoint.orgId,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
    previous_secret_expires_at:
      endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > new Date() ? endpoint.previousSecretExpiresAt.toISOString() : null,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

export function toDeliveryView(delivery: WebhookDelivery, attempts: WebhookAttempt[]): WebhookDeliveryView {
  return {
    delivery_id: delivery.id,
    endpoint_id: delivery.endpointId,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempt_count: delivery.attemptCount,
    next_attempt_at: iso(delivery.nextAttemptAt),
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    delivered_at: iso(delivery.deliveredAt),
    created_at: delivery.createdAt.toISOString(),
    attempts: attempts
      .filter((attempt) => attempt.deliveryId === delivery.id)
      .map((attempt) => ({
        attempt: attempt.attemptNumber,
        started_at: attempt.startedAt.toISOString(),
        duration_ms: attempt.durationMs,
        status_code: attempt.statusCode,
        response_excerpt: attempt.responseExcerpt,
        error: attempt.error,
      })),
  };
}
