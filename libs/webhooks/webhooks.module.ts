import { Module } from '@nestjs/common';
import { LimitsModule } from '@pylon/limits';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookEndpointsService } from './webhook-endpoints.service';

import { WebhookDeliveryRepository } from './repositories/webhook-delivery.repository';
import { WebhookEndpointRepository } from './repositories/webhook-endpoint.repository';

/**
 * Webhooks' rules: endpoints and their delivery logs (for the API), delivery (for the worker's
 * activities). Needs the global config, database, organisations and Temporal client modules.
 */
@Module({
  imports: [LimitsModule],
  providers: [WebhookDeliveryService, WebhookEndpointsService, WebhookEndpointRepository, WebhookDeliveryRepository],
  exports: [WebhookDeliveryService, WebhookEndpointsService],
})
export class WebhooksModule {}
