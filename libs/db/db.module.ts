import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PylonConfig } from '@pylon/config';
import { dataSourceOptions } from './data-source';
import { SafeTypeOrmLogger } from './typeorm-logger';
import { AgentRepository } from './repositories/agent.repository';
import { AgentRunRepository } from './repositories/agent-run.repository';
import { AgentScheduleRepository } from './repositories/agent-schedule.repository';
import { RunEventRepository } from './repositories/run-event.repository';
import { ConversationRepository } from './repositories/conversation.repository';
import { RunActionRepository } from './repositories/run-action.repository';
import { RunUsageRepository } from './repositories/run-usage.repository';
import { ModelPriceRepository } from './repositories/model-price.repository';
import { ModelPriceChanges } from './model-price-changes';
import { ApiKeyRepository } from './repositories/api-key.repository';
import { OrganizationRepository } from './repositories/organization.repository';
import { OrgLimitsRepository } from './repositories/org-limits.repository';
import { RateLimitStore } from './rate-limit-store';
import { KeyRateBucketRepository } from './repositories/key-rate-bucket.repository';
import { RunEventNotifications } from './run-event-notifications';
import { ApiKeyChanges } from './api-key-changes';
import { KnowledgeBaseRepository } from './repositories/knowledge-base.repository';
import { KnowledgeBatchRepository } from './repositories/knowledge-batch.repository';
import { KnowledgeChunkRepository } from './repositories/knowledge-chunk.repository';
import { KnowledgeDocumentRepository } from './repositories/knowledge-document.repository';
import { KnowledgeVectorIndexRepository } from './repositories/knowledge-vector-index.repository';
import { LedgerRepository } from './repositories/ledger.repository';
import { VideoGenerationRepository } from './repositories/video-generation.repository';
import { WebhookDeliveryRepository } from './repositories/webhook-delivery.repository';
import { WebhookEndpointRepository } from './repositories/webhook-endpoint.repository';
import { UsageRepository } from './repositories/usage.repository';
import { Transactions } from './transactions';
import { Outbox, SUBSCRIPTION_FILTER, type SubscriptionFilter } from './repositories/outbox';

const REPOSITORIES = [
  OrganizationRepository,
  ApiKeyRepository,
  AgentRepository,
  AgentRunRepository,
  AgentScheduleRepository,
  RunEventRepository,
  ConversationRepository,
  RunActionRepository,
  RunUsageRepository,
  ModelPriceRepository,
  ModelPriceChanges,
  KnowledgeBaseRepository,
  KnowledgeDocumentRepository,
  KnowledgeVectorIndexRepository,
  KnowledgeBatchRepository,
  KnowledgeChunkRepository,
  LedgerRepository,
  VideoGenerationRepository,
  WebhookEndpointRepository,
  WebhookDeliveryRepository,
  OrgLimitsRepository,
  RateLimitStore,
  KeyRateBucketRepository,
  UsageRepository,
  RunEventNotifications,
  ApiKeyChanges,
  Transactions,
];

/** What the process's features tell the database module. */
export interface DbModuleOptions {
  /** Which endpoints an event is delivered to (the webhooks feature's rule), for the outbox. */
  subscriptionFilter: SubscriptionFilter;
}

/** The database connection and the repositories, the only code that touches SQL. */
@Global()
@Module({})
export class DbModule {
  static forRoot(options: DbModuleOptions): DynamicModule {
    return {
      module: DbModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [PylonConfig],
          useFactory: (config: PylonConfig) =>
            dataSourceOptions({
              url: config.requireDatabaseUrl(),
              poolSize: config.dbPoolSize,
              preparedStatements: config.dbPreparedStatements,
              applicationName: process.title,
              logger: new SafeTypeOrmLogger(),
            }),
        }),
      ],
      providers: [{ provide: SUBSCRIPTION_FILTER, useValue: options.subscriptionFilter }, Outbox, ...REPOSITORIES],
      exports: REPOSITORIES,
    };
  }
}
