import type { Schemas } from '../../api/client';

/** The webhook views the endpoint page and its delivery log share. */
export type Endpoint = Schemas['WebhookEndpointView'];
export type Delivery = Schemas['WebhookDeliveryView'];
export type Attempt = Delivery['attempts'][number];
export type DeliveryStatus = Delivery['status'];
