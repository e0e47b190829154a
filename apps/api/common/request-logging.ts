import type { FastifyInstance } from 'fastify';
import { PinoLogger } from 'nestjs-pino';
import type { Logger } from 'pino';
import { REQUEST_ID_KEY, runForRequest } from '@pylon/logging';

/** Probes and scrapes, not traffic: kept out of the access log. */
const UNLOGGED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Each request's log context and its access line, as two Fastify hooks. Every line written while
 * handling a request (Nest's loggers, the error filter, TypeORM's) carries the request id, which the
 * root logger's mixin (requestIdMixin) reads from the request's context; the access line says which
 * request and how it ended. nestjs-pino's own middleware does the same through @fastify/middie and
 * pino-http, which build two child loggers and serialize the request for every request, logged or
 * not: 21% of the API's requests/s on `bench read`.
 */
export function registerRequestLogging(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => runForRequest(request.id, done));
  fastify.addHook('onResponse', (request, reply, done) => {
    const log = accessLog();
    if (log?.isLevelEnabled('info') && !UNLOGGED_PATHS.has(request.url.split('?')[0]!)) {
      // The raw request and response, as pino-http logs them: its serializers expect those (app.module picks the fields).
      const line = { [REQUEST_ID_KEY]: request.id, req: request.raw, res: reply.raw, responseTime: reply.elapsedTime };
      log.info(line, reply.raw.statusCode >= 500 ? 'request errored' : 'request completed');
    }
    done();
  });
}

let access: { root: Logger; logger: Logger } | undefined;

/**
 * The root logger without its redaction paths, for access lines only: a line's fields are fixed (the
 * request id, the method and URL, the status, the time) and none is a secret field, so checking the
 * root's wildcard paths against each line (10 µs of a 100 µs read) protects nothing. Secret-looking text
 * in a URL is still masked, by the stream hook every line of every logger passes.
 */
function accessLog(): Logger | undefined {
  const root = PinoLogger.root as Logger | undefined;
  if (!root) return undefined;
  if (access?.root !== root) access = { root, logger: root.child({}, { redact: [] }) };
  return access.logger;
}
