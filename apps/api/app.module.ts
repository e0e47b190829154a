import { randomUUID } from 'node:crypto';
import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { ConfigModule, PylonConfig } from '@pylon/config';
import { DbModule } from '@pylon/db';
import { MetricsModule } from '@pylon/metrics';
import { LimitsModule } from '@pylon/limits';
import { TemporalClientModule } from '@pylon/temporal';
import { AdminModule } from './admin/admin.module';
import { AgentRunsApiModule } from './agent-runs/agent-runs.module';
import { AgentsModule } from './agents/agents.module';
import { AuthModule } from './auth/auth.module';
import { ErrorFilter } from './common/error.filter';
import { HealthModule } from './health/health.module';
import { KnowledgeApiModule } from './knowledge/knowledge-api.module';
import { MetricsApiModule } from './metrics/metrics-api.module';
import { TokensModule } from './tokens/tokens.module';
import { VideoApiModule } from './video/video-api.module';
import { WebhooksApiModule } from './webhooks/webhooks-api.module';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Probes and scrapes, not traffic: kept out of the access log. */
const UNLOGGED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

@Module({
  imports: [
    ConfigModule,
    MetricsModule.forProcess('api'),
    LoggerModule.forRootAsync({
      inject: [PylonConfig],
      useFactory: (config: PylonConfig) => ({
        pinoHttp: {
          level: config.logLevel,
          genReqId: (request, response) => {
            const incoming = request.headers['x-request-id'];
            const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
            response.setHeader('x-request-id', id);
            return id;
          },
          redact: ['req.headers.authorization', 'req.headers.cookie'],
          autoLogging: { ignore: (request) => UNLOGGED_PATHS.has((request.url ?? '').split('?')[0]!) },
        },
      }),
    }),
    DbModule,
    LimitsModule,
    TemporalClientModule,
    AuthModule,
    AdminModule,
    AgentsModule,
    AgentRunsApiModule,
    KnowledgeApiModule,
    TokensModule,
    VideoApiModule,
    WebhooksApiModule,
    HealthModule,
    MetricsApiModule,
  ],
  providers: [{ provide: APP_FILTER, useClass: ErrorFilter }],
})
export class AppModule {}
