import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '@pylon/db';
import type { WebhookRequest } from '@pylon/webhooks';
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

/** A delivery as the log shows it: `request` is what it POSTs (by event id, or the one request), `attempts` may hold other deliveries' too. */
export function toDeliveryView(
  delivery: WebhookDelivery,
  attempts: WebhookAttempt[],
  request: WebhookRequest | Map<string, WebhookRequest> | null,
): WebhookDeliveryView {
  const requestOfDelivery = request instanceof Map ? (request.get(delivery.eventId) ?? null) : request;
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
    request: requestOfDelivery ? { body: requestOfDelivery.body, headers: requestOfDelivery.headers } : null,
    attempts: attempts
      .filter((attempt) => attempt.deliveryId === delivery.id)
      .map((attempt) => ({
        attempt: attempt.attemptNumber,
        started_at: attempt.startedAt.toISOString(),
        duration_ms: attempt.durationMs,
        request_headers: attempt.requestHeaders,
        status_code: attempt.statusCode,
        response_headers: attempt.responseHeaders,
        response_excerpt: attempt.responseExcerpt,
        error: attempt.error,
      })),
  };
}
