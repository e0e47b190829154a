export { generateWebhookSecret } from './webhook-secret';
export { signatureHeaders } from './signing';
export { assertDeliverableUrl, isNonPublicAddress, PrivateTargets, RefusedUrlError } from './address-guard';
export { postWebhook, type WebhookPost, type WebhookResponse } from './sender';
export { eventEnvelope } from './envelope';
export { WebhookDeliveryService } from './webhook-delivery.service';
export { WebhooksModule } from './webhooks.module';
export { WebhookEndpointsService, OPERATOR_DISABLED_REASON, type DeliveriesWithAttempts, type NewEndpointRequest } from './webhook-endpoints.service';
