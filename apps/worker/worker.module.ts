import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AgentRunsModule } from '@pylon/agent-runs';
import { ConfigModule, PylonConfig } from '@pylon/config';
import { DbModule } from '@pylon/db';
import { KnowledgeModule } from '@pylon/knowledge';
import { LlmModule } from '@pylon/llm';
import { pylonLoggerOptions } from '@pylon/logging';
import { MetricsModule } from '@pylon/metrics';
import { OrganizationsModule } from '@pylon/organizations';
import { TemporalClientModule } from '@pylon/temporal';
import { VideoModule } from '@pylon/video';
import { WebhooksModule, webhookSubscriptionFilter } from '@pylon/webhooks';
import { AgentRunActivitiesImpl } from './activities/agent-run.activities';
import { AgentScheduleActivitiesImpl } from './activities/agent-schedule.activities';
import { ConversationActivitiesImpl } from './activities/conversation.activities';
import { KnowledgeIngestionActivitiesImpl } from './activities/knowledge-ingestion.activities';
import { KnowledgeBatchActivitiesImpl } from './activities/knowledge-batch.activities';
import { McpToolActivitiesImpl } from './activities/mcp-tool.activities';
import { KnowledgeVectorIndexActivitiesImpl } from './activities/knowledge-vector-index.activities';
import { VideoActivitiesImpl } from './activities/video.activities';
import { WebhookActivitiesImpl } from './activities/webhook.activities';

/** The worker's application context: no HTTP server, just what the activities need. */
@Module({
  imports: [
    ConfigModule,
    // The worker serves no HTTP: nestjs-pino only gives it the same pino logger as the API's.
    LoggerModule.forRootAsync({
      inject: [PylonConfig],
      useFactory: (config: PylonConfig) => ({ pinoHttp: pylonLoggerOptions(config.logLevel) }),
    }),
    MetricsModule.forProcess('worker'),
    DbModule.forRoot({ subscriptionFilter: webhookSubscriptionFilter }),
    OrganizationsModule,
    // The agent-runs service also starts and cancels workflows (for the API); its client connects lazily, on first use.
    TemporalClientModule,
    LlmModule,
    KnowledgeModule,
    AgentRunsModule,
    VideoModule,
    WebhooksModule,
  ],
  providers: [
    AgentRunActivitiesImpl,
    AgentScheduleActivitiesImpl,
    ConversationActivitiesImpl,
    KnowledgeIngestionActivitiesImpl,
    KnowledgeBatchActivitiesImpl,
    KnowledgeVectorIndexActivitiesImpl,
    McpToolActivitiesImpl,
    VideoActivitiesImpl,
    WebhookActivitiesImpl,
  ],
})
export class WorkerModule {}
