import { Module } from '@nestjs/common';
import { WebhookDeliveryService } from './webhook-delivery.service';

/** Webhook delivery for the worker's activities. */
@Module({
  providers: [WebhookDeliveryService],
  exports: [WebhookDeliveryService],
})
export class WebhooksModule {}
