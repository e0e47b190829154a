import { Module } from '@nestjs/common';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhooksController } from './webhooks.controller';

@Module({ controllers: [WebhooksController], providers: [WebhookEndpointsService] })
export class WebhooksApiModule {}
