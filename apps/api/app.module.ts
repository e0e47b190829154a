import { Module, RequestMethod } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { ConfigModule, PylonConfig } from '@pylon/config';
import { DbModule } from '@pylon/db';
import { MetricsModule } from '@pylon/metrics';
import { LimitsModule } from '@pylon/limits';
import { pylonLogDestination, pylonLoggerOptions, REQUEST_ID_KEY } from '@pylon/logging';
import { TemporalClientModule } from '@pylon/temporal';
import { AdminModule } from './admin/admin.module';
import { AgentRunsApiModule } from './agent-runs/agent-runs.module';
import { ApiKeysApiModule } from './api-keys/api-keys.module';
import { AgentsModule } from './agents/agents.module';
import { AuthModule } from './auth/auth.module';
import { ErrorFilter } from './common/error.filter';
import { HealthModule } from './health/health.module';
import { KnowledgeApiModule } from './knowledge/knowledge-api.module';
import { MetricsApiModule } from './metrics/metrics-api.module';
import { TokensModule } from './tokens/tokens.module';
import { VideoApiModule } from './video/video-api.module';
import { WebhooksApiModule } from './webhooks/webhooks-api.module';

/** Probes and scrapes, not traffic: kept out of the access log. */
const UNLOGGED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

@Module({
  imports: [
    ConfigModule,
    MetricsModule.forProcess('api'),
    LoggerModule.forRootAsync({
      inject: [PylonConfig],
      useFactory: (config: PylonConfig) => ({
        // nestjs-pino's default route, `{/*splat}`, matches no request on this Nest's Fastify adapter:
        // without this, no access line is written and no line knows its request.
        forRoutes: [{ path: '*path', method: RequestMethod.ALL }],
        pinoHttp: [
          {
          ...pylonLoggerOptions(config.logLevel),
          // The id is Fastify's (see createApp), which middie copies to the raw request pino-http sees.
          quietReqLogger: true,
          customAttributeKeys: { reqId: REQUEST_ID_KEY },
          // Nest's middleware sees `url` cut to "/"; `originalUrl` is the request's.
          autoLogging: { ignore: (request) => UNLOGGED_PATHS.has(((request as { originalUrl?: string }).originalUrl ?? request.url ?? '').split('?')[0]!) },
          },
          pylonLogDestination(),
        ],
      }),
    }),
    DbModule,
    LimitsModule,
    TemporalClientModule,
    AuthModule,
    AdminModule,
    AgentsModule,
    AgentRunsApiModule,
    ApiKeysApiModule,
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
