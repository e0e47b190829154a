export { generateWebhookSecret } from './webhook-secret';
export { signatureHeaders } from './signing';
export {
  assertDeliverableUrl,
  assertNoPrivateTargetInUrl,
  guardedLookup,
  isNonPublicAddress,
  PrivateTargets,
  RefusedUrlError,
} from './address-guard';
export { boundedHeaders, postWebhook, type WebhookPost, type WebhookResponse } from './sender';
export { attemptHeaders, eventEnvelope, webhookRequest, WEBHOOK_USER_AGENT, type WebhookRequest } from './envelope';
export { WebhookDeliveryService } from './webhook-delivery.service';
export { webhookSubscriptionFilter } from './subscription-filter';
export { WebhooksModule } from './webhooks.module';
export {
  WebhookEndpointsService,
  OPERATOR_DISABLED_REASON,
  type DeliveriesWithAttempts,
  type DeliveryWithAttempts,
  type NewEndpointRequest,
  type Recovery,
} from './webhook-endpoints.service';
export { WebhookEndpointRepository, type EndpointChanges } from './repositories/webhook-endpoint.repository';
export {
  WebhookDeliveryRepository,
  type AttemptOfDelivery,
  type AttemptRecord,
  type DeliveryContext,
  type DeliveryFilter,
  type EventDeliveries,
} from './repositories/webhook-delivery.repository';
