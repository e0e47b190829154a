import { Module } from '@nestjs/common';
import { WebhooksModule } from '@pylon/webhooks';
import { AdminWebhooksController } from './admin-webhooks.controller';
import { WebhooksController } from './webhooks.controller';

@Module({ imports: [WebhooksModule], controllers: [WebhooksController, AdminWebhooksController] })
export class WebhooksApiModule {}
