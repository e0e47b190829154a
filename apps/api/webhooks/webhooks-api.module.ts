import { Module } from '@nestjs/common';
import { AdminWebhooksController } from './admin-webhooks.controller';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhooksController } from './webhooks.controller';

@Module({ controllers: [WebhooksController, AdminWebhooksController], providers: [WebhookEndpointsService] })
export class WebhooksApiModule {}
