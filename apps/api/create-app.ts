import 'reflect-metadata';
import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'nestjs-pino';
import { parse as parseQuery } from 'qs';
import { PylonConfig, loadConfig } from '@pylon/config';
import { REQUEST_ID_HEADER, requestIdFor } from '@pylon/logging';
import { PylonMetrics } from '@pylon/metrics';
import { AppModule } from './app.module';
import { registerBodyParsers } from './common/body-parsing';
import { registerMultipart } from './common/multipart';
import { echoRequestId } from './common/request-id';
import { ErrorFilter } from './common/error.filter';
import { answerClientError, answerUnmetExpectations, refuseVersionlessRequestLines } from './common/http-parser-errors';
import { registerRequestLogging } from './common/request-logging';
import { registerRoutingErrors } from './common/routing-errors';
import { refuseRequestsWhileClosing } from './common/shutdown-errors';
import { serveConsole } from './console/console-files';
import { registerHttpMetrics } from './metrics/http-metrics';
import { publishOpenApi } from './openapi/openapi';
import { serveMediaFiles } from './video/media-files';
import { registerSecurityHeaders } from './common/security-headers';

/** Builds the HTTP application: Fastify, strict JSON bodies, validation, errors and OpenAPI. */
export async function createApp(): Promise<NestFastifyApplication> {
  const config = loadConfig();
  config.requireAdminToken();
  const errors = new ErrorFilter();
  const adapter = new FastifyAdapter({
    // No Nest middleware exists (request logging is Fastify hooks), so @fastify/middie's per-request hook is not added.
    skipMiddie: true,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // Fastify owns the request id: every response gets it, even one no route or middleware saw.
    requestIdHeader: false,
    genReqId: (request: IncomingMessage) => requestIdFor(request.headers[REQUEST_ID_HEADER]),
    // Answered by refuseRequestsWhileClosing instead, with the error body of every other error.
    return503OnClosing: false,
    requestTimeout: config.requestTimeoutMs,
    // Node checks for timed-out requests every 30 s by default, far too coarse for the timeout above.
    http: { requestTimeout: config.requestTimeoutMs, connectionsCheckingInterval: 1_000 },
    clientErrorHandler: answerClientError,
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => errors.respond(error, request, reply),
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
  const fastify = app.getHttpAdapter().getInstance();
  registerRequestLogging(fastify);
  echoRequestId(fastify);
  registerBodyParsers(fastify, app.get(PylonConfig).bodyLimitBytes);
  await registerMultipart(app);
  registerHttpMetrics(fastify, app.get(PylonMetrics));
  refuseRequestsWhileClosing(fastify);
  registerRoutingErrors(fastify);
  registerSecurityHeaders(fastify);
  answerUnmetExpectations(fastify.server);
  refuseVersionlessRequestLines(fastify.server);
  app.enableShutdownHooks();
  publishOpenApi(app);
  serveMediaFiles(app, app.get(PylonConfig).mediaDir);
  await serveConsole(app);
  return app;
}
