import { Paginated } from '../pagination.js';
import { newIdempotencyKey, type RequestOptions, type Transport } from '../transport.js';
import type { Page, QueryParams, RequestBody, ResponseBody } from '../types.js';
import { verifyWebhook, type VerifyOptions, type WebhookEvent, type WebhookHeaders } from '../webhook-verification.js';

export type WebhookEndpoint = ResponseBody<'/api/v1/webhook-endpoints/{endpoint_id}', 'get'>;
export type WebhookDelivery = ResponseBody<'/api/v1/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}', 'get'>;
export type RecoveredDeliveries = ResponseBody<'/api/v1/webhook-endpoints/{endpoint_id}/recover', 'post'>;

const path = (endpointId: string) => `/api/v1/webhook-endpoints/${encodeURIComponent(endpointId)}`;

/** Webhook endpoints, their delivery logs, and the signature check for what they receive. */
export class Webhooks {
  constructor(private readonly transport: Transport) {}

  /** Checks a delivered webhook's signature against the endpoint's secret (or both secrets during a rotation) and returns the event. */
  verify<Data = Record<string, unknown>>(
    payload: string,
    headers: WebhookHeaders,
    secret: string | readonly string[],
    options?: VerifyOptions,
  ): Promise<WebhookEvent<Data>> {
    return verifyWebhook<Data>(payload, headers, secret, options);
  }

  /** Adds an endpoint; its secret is in this answer (and a retry of it with the same Idempotency-Key) only. Retried with one Idempotency-Key, so it is created once. */
  create(
    body: RequestBody<'/api/v1/webhook-endpoints', 'post'>,
    options: RequestOptions = {},
  ): Promise<ResponseBody<'/api/v1/webhook-endpoints', 'post'>> {
    return this.transport.request('POST', '/api/v1/webhook-endpoints', {
      ...options,
      body,
      idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
    });
  }

  get(endpointId: string, options: RequestOptions = {}): Promise<WebhookEndpoint> {
    return this.transport.request('GET', path(endpointId), options);
  }

  list(params: { limit?: number } = {}, options: RequestOptions = {}): Paginated<WebhookEndpoint> {
    return new Paginated((cursor) =>
      this.transport.request<Page<WebhookEndpoint>>('GET', '/api/v1/webhook-endpoints', { ...options, query: { ...params, cursor } }),
    );
  }

  update(
    endpointId: string,
    body: RequestBody<'/api/v1/webhook-endpoints/{endpoint_id}', 'patch'>,
    options: RequestOptions = {},
  ): Promise<WebhookEndpoint> {
    return this.transport.request('PATCH', path(endpointId), { ...options, body });
  }

  delete(endpointId: string, options: RequestOptions = {}): Promise<ResponseBody<'/api/v1/webhook-endpoints/{endpoint_id}', 'delete'>> {
    return this.transport.request('DELETE', path(endpointId), options);
  }

  /** A new secret; the old one keeps signing beside it for the grace period. */
  rotateSecret(
    endpointId: string,
    body: RequestBody<'/api/v1/webhook-endpoints/{endpoint_id}/rotate-secret', 'post'> = {},
    options: RequestOptions = {},
  ): Promise<ResponseBody<'/api/v1/webhook-endpoints/{endpoint_id}/rotate-secret', 'post'>> {
    return this.transport.request('POST', `${path(endpointId)}/rotate-secret`, { ...options, body });
  }

  sendTestEvent(endpointId: string, options: RequestOptions = {}): Promise<ResponseBody<'/api/v1/webhook-endpoints/{endpoint_id}/test', 'post'>> {
    return this.transport.request('POST', `${path(endpointId)}/test`, options);
  }

  /** The delivery log, newest first, page after page; `status`, `event_type` and `event_id` (the message id, `webhook-id`) narrow it. */
  deliveries(
    endpointId: string,
    params: Omit<QueryParams<'/api/v1/webhook-endpoints/{endpoint_id}/deliveries', 'get'>, 'cursor'> = {},
    options: RequestOptions = {},
  ): Paginated<WebhookDelivery> {
    return new Paginated((cursor) =>
      this.transport.request<Page<WebhookDelivery>>('GET', `${path(endpointId)}/deliveries`, { ...options, query: { ...params, cursor } }),
    );
  }

  getDelivery(endpointId: string, deliveryId: string, options: RequestOptions = {}): Promise<WebhookDelivery> {
    return this.transport.request('GET', `${path(endpointId)}/deliveries/${encodeURIComponent(deliveryId)}`, options);
  }

  retryDelivery(
    endpointId: string,
    deliveryId: string,
    options: RequestOptions = {},
  ): Promise<ResponseBody<'/api/v1/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/retry', 'post'>> {
    return this.transport.request('POST', `${path(endpointId)}/deliveries/${encodeURIComponent(deliveryId)}/retry`, options);
  }

  /**
   * Re-sends now every failed delivery of the endpoint created at or after `since` (an ISO date-time, at most
   * 30 days back), oldest first, at most 1 000 per call: `has_more` says to call again. A disabled endpoint
   * is refused (`EndpointDisabledError`).
   */
  recover(
    endpointId: string,
    body: RequestBody<'/api/v1/webhook-endpoints/{endpoint_id}/recover', 'post'>,
    options: RequestOptions = {},
  ): Promise<RecoveredDeliveries> {
    return this.transport.request('POST', `${path(endpointId)}/recover`, { ...options, body });
  }
}
