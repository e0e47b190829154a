import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { OrganizationsModule } from '@pylon/organizations';
import { LoggerModule } from 'nestjs-pino';
import { ConfigModule, PylonConfig } from '@pylon/config';
import { DbModule } from '@pylon/db';
import { MetricsModule } from '@pylon/metrics';
import { LimitsModule } from '@pylon/limits';
import { bufferedStdout, pylonLoggerOptions, requestIdMixin } from '@pylon/logging';
import { TemporalClientModule } from '@pylon/temporal';
import { webhookSubscriptionFilter } from '@pylon/webhooks';
import { AdminModule } from './admin/admin.module';
import { AgentRunsApiModule } from './agent-runs/agent-runs.module';
import { OpenAiCompatApiModule } from './openai-compat/openai-compat-api.module';
import { ConversationsApiModule } from './conversations/conversations.module';
import { AgentSchedulesApiModule } from './agent-schedules/agent-schedules.module';
import { ApiKeysApiModule } from './api-keys/api-keys.module';
import { AgentsApiModule } from './agents/agents.module';
import { AuthModule } from './auth/auth.module';
import { ErrorFilter } from './common/error.filter';
import { HealthModule } from './health/health.module';
import { KnowledgeApiModule } from './knowledge/knowledge-api.module';
import { KnowledgeBasesApiModule } from './knowledge-bases/knowledge-bases-api.module';
import { MetricsApiModule } from './metrics/metrics-api.module';
import { ModelCredentialsApiModule } from './model-credentials/model-credentials-api.module';
import { TokensModule } from './tokens/tokens.module';
import { UsageApiModule } from './usage/usage-api.module';
import { VideoApiModule } from './video/video-api.module';
import { WebhooksApiModule } from './webhooks/webhooks-api.module';

@Module({
  imports: [
    ConfigModule,
    MetricsModule.forProcess('api'),
    LoggerModule.forRootAsync({
      inject: [PylonConfig],
      useFactory: (config: PylonConfig) => {
        const base = pylonLoggerOptions(config.logLevel);
        return {
          // No HTTP middleware: each request's context and access line are Fastify hooks (registerRequestLogging).
          forRoutes: [],
          pinoHttp: [
            {
              ...base,
              // Every line written while handling a request carries its id (registerRequestLogging sets it).
              mixin: requestIdMixin,
              // An access line says which request and how it ended, nothing of its headers.
              serializers: { ...base.serializers, req: accessLineRequest, res: accessLineResponse },
            },
            bufferedStdout(),
          ],
        };
      },
    }),
    DbModule.forRoot({ subscriptionFilter: webhookSubscriptionFilter }),
    OrganizationsModule,
    LimitsModule,
    TemporalClientModule,
    AuthModule,
    AdminModule,
    AgentsApiModule,
    ModelCredentialsApiModule,
    AgentRunsApiModule,
    OpenAiCompatApiModule,
    ConversationsApiModule,
    AgentSchedulesApiModule,
    ApiKeysApiModule,
    KnowledgeApiModule,
    KnowledgeBasesApiModule,
    TokensModule,
    UsageApiModule,
    VideoApiModule,
    WebhooksApiModule,
    HealthModule,
    MetricsApiModule,
  ],
  providers: [{ provide: APP_FILTER, useClass: ErrorFilter }],
})
export class AppModule {}

function accessLineRequest(request: { method?: string; url?: string; originalUrl?: string }): object {
  return { method: request.method, url: request.originalUrl ?? request.url };
}

function accessLineResponse(response: { statusCode?: number }): object {
  return { statusCode: response.statusCode };
}
