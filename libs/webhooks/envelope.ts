import type { PylonEvent } from '@pylon/db';
import { signatureHeaders } from './signing';

/** What a receiver gets: `{id, type, created_at, data}`, `data` being the resource as the API returns it. */
export function eventEnvelope(event: PylonEvent): string {
  return JSON.stringify({ id: event.id, type: event.type, created_at: event.createdAt.toISOString(), data: event.data });
}

/** Who is calling, in every webhook request. */
export const WEBHOOK_USER_AGENT = 'Pylon-Webhooks/1.0';

/**
 * What a delivery of `event` POSTs: the body (the envelope, the same bytes on every attempt) and the headers
 * that are the same on every attempt. The message id (`webhook-id`) is the event's id: every endpoint and
 * every attempt of one event carries the same, so a receiver can drop a message it already handled.
 */
export interface WebhookRequest {
  body: string;
  headers: Record<string, string>;
}

export function webhookRequest(event: PylonEvent): WebhookRequest {
  return {
    body: eventEnvelope(event),
    headers: { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT, 'webhook-id': event.id },
  };
}

/**
 * Every header one attempt sends: the delivery's, its Standard Webhooks signature made now with each live
 * secret (`webhook-timestamp`, `webhook-signature`: MACs, not secrets) and the body's length.
 */
export function attemptHeaders(request: WebhookRequest, timestamp: Date, secrets: string[]): Record<string, string> {
  return {
    ...request.headers,
    ...signatureHeaders(request.headers['webhook-id']!, timestamp, request.body, secrets),
    'content-length': String(Buffer.byteLength(request.body)),
  };
}
