import 'reflect-metadata';
import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { parse as parseQuery } from 'qs';
import { PylonConfig, loadConfig } from '@pylon/config';
import { REQUEST_ID_HEADER, requestIdFor } from '@pylon/logging';
import { PylonMetrics } from '@pylon/metrics';
import { AppModule } from './app.module';
import { registerBodyParsers } from './common/body-parsing';
import { echoRequestId } from './common/request-id';
import { BodyShapePipe } from './common/body-shape.pipe';
import { createValidationPipe } from './common/validation.pipe';
import { registerHttpMetrics } from './metrics/http-metrics';
import { publishOpenApi } from './openapi/openapi';
import { serveMediaFiles } from './video/media-files';

/** Builds the HTTP application: Fastify, strict JSON bodies, validation, errors and OpenAPI. */
export async function createApp(): Promise<NestFastifyApplication> {
  const config = loadConfig();
  config.requireAdminToken();
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // Fastify owns the request id: every response gets it, even one no route or middleware saw.
    requestIdHeader: false,
    genReqId: (request: IncomingMessage) => requestIdFor(request.headers[REQUEST_ID_HEADER]),
    return503OnClosing: true,
    routerOptions: {
      // `ids[0]=…&ids[1]=…` as well as `ids=…&ids=…`; nothing deeper than one level.
      querystringParser: (query: string) => parseQuery(query, { depth: 1, arrayLimit: 100, parameterLimit: 200 }),
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, adapter, {
    bufferLogs: true,
    bodyParser: false,
  });
  app.useLogger(app.get(Logger));
  echoRequestId(app.getHttpAdapter().getInstance());
  registerBodyParsers(app.getHttpAdapter().getInstance(), app.get(PylonConfig).bodyLimitBytes);
  registerHttpMetrics(app.getHttpAdapter().getInstance(), app.get(PylonMetrics));
  app.useGlobalPipes(new BodyShapePipe(), createValidationPipe());
  app.enableShutdownHooks();
  publishOpenApi(app);
  serveMediaFiles(app, app.get(PylonConfig).mediaDir);
  return app;
}
