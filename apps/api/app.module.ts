import { Module, RequestMethod } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { ConfigModule, PylonConfig } from '@pylon/config';
import { DbModule } from '@pylon/db';
import { MetricsModule } from '@pylon/metrics';
import { LimitsModule } from '@pylon/limits';
import { pylonLoggerOptions, REQUEST_ID_KEY } from '@pylon/logging';
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
      useFactory: (config: PylonConfig) => {
        const base = pylonLoggerOptions(config.logLevel);
        return {
          // nestjs-pino's default route, `{/*splat}`, matches no request on this Nest's Fastify adapter:
          // without this, no access line is written and no line knows its request.
          forRoutes: [{ path: '*path', method: RequestMethod.ALL }],
          pinoHttp: {
            ...base,
            // An access line says which request and how it ended; headers would be redacted anyway, and
            // serializing and redacting them for every request cost ~7% of the API's CPU (bench `read`).
            serializers: { ...base.serializers, req: accessLineRequest, res: accessLineResponse },
            // The id is Fastify's (see createApp), which middie copies to the raw request pino-http sees.
            quietReqLogger: true,
            customAttributeKeys: { reqId: REQUEST_ID_KEY },
            // Nest's middleware sees `url` cut to "/"; `originalUrl` is the request's.
            autoLogging: { ignore: (request) => UNLOGGED_PATHS.has(((request as { originalUrl?: string }).originalUrl ?? request.url ?? '').split('?')[0]!) },
          },
        };
      },
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

function accessLineRequest(request: { method?: string; url?: string; originalUrl?: string }): object {
  return { method: request.method, url: request.originalUrl ?? request.url };
}

function accessLineResponse(response: { statusCode?: number }): object {
  return { statusCode: response.statusCode };
}
