import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, PylonError } from '@pylon/contracts';
import { isDatabaseUnavailable } from '@pylon/db';
import { truncate } from '@pylon/logging';
import { openAiErrorBody, speaksOpenAi } from '../openai-compat/openai-error-body';
import { ApiError } from './api-error';
import { codeOfFastifyError, errorBodyOf, statusOf } from './error-status';

/** Whether the error is the request's own stream ending early: the client disconnected mid-body. */
function clientWentAway(exception: unknown, request: FastifyRequest): boolean {
  return (exception as { code?: unknown })?.code === 'ECONNRESET' && request.raw.readableAborted;
}

/** Fastify's messages for these quote the request's path; the client knows what it sent. */
const DETAIL_WITHOUT_INPUT: Readonly<Record<string, string>> = {
  FST_ERR_BAD_URL: 'the path is not a valid URL (malformed percent-encoding)',
  FST_ERR_MAX_PARAM_LENGTH: 'a path segment is longer than any identifier of this API',
};

/**
 * The one place an error becomes a response: exactly `{"error": "<code>"}` (on the OpenAI-compatible routes,
 * OpenAI's error object) with its status, the reason
 * in `Error-Detail` and the error's own headers (e.g. `Retry-After`). Anything unexpected is a 500
 * `internal_error`, logged with the request id; no stack reaches the client.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    this.respond(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }

  /** Also the router's `frameworkErrors` handler: a malformed URL or an over-long parameter never reaches Nest. */
  respond(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
    if (clientWentAway(exception, request)) {
      // Node reports it as ECONNRESET, which would otherwise read as a database that went away.
      this.logger.log(
        { method: request.method, url: truncate(request.url, 300) },
        `request ${request.id}: the client closed the connection before its body ended`,
      );
      void reply.status(400).header('content-type', 'application/json; charset=utf-8').send(errorBodyOf(ErrorCode.InvalidRequest));
      return;
    }
    const error = this.asPylonError(exception);
    const { code, detail } = error;
    if (statusOf(code) >= 500) {
      // The error goes through the logger's error serializer, which keeps its code, message and
      // constraint but never a database error's parameters or the row it quotes.
      this.logger.error({ err: exception, method: request.method, url: truncate(request.url, 300) }, `request ${request.id} failed: ${code}`);
    }
    for (const [name, value] of Object.entries(headersOf(error))) reply.header(name, value);
    if (detail) reply.header('Error-Detail', detail.replace(/[^\x20-\x7e]/g, '?').slice(0, 300));
    const body = speaksOpenAi(request.url) ? openAiErrorBody(error, statusOf(code)) : errorBodyOf(code);
    void reply.status(statusOf(code)).header('content-type', 'application/json; charset=utf-8').send(body);
  }

  private asPylonError(exception: unknown): PylonError {
    if (exception instanceof PylonError) return exception;
    if (isDatabaseUnavailable(exception)) {
      return new PylonError(ErrorCode.DatabaseUnavailable, 'the database is not answering; retry shortly (with the same Idempotency-Key)', {
        retryAfterSeconds: 1,
      });
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = codeOfFastifyError(undefined, status);
      return code ? new PylonError(code, status === 404 ? 'no such route' : exception.message) : new PylonError(ErrorCode.InternalError);
    }
    const fastify = exception as { code?: string; statusCode?: number; message?: string };
    const code =
      typeof fastify?.code === 'string' || typeof fastify?.statusCode === 'number' ? codeOfFastifyError(fastify.code, fastify.statusCode) : undefined;
    return code
      ? new PylonError(code, (fastify.code && DETAIL_WITHOUT_INPUT[fastify.code]) ?? fastify.message)
      : new PylonError(ErrorCode.InternalError);
  }
}

/** The response headers an error asks for: an HTTP-level error's own (`Allow`, RateLimit-*), `Retry-After` when waiting cures it. */
function headersOf(error: PylonError): Readonly<Record<string, string>> {
  const headers = error instanceof ApiError ? error.headers : {};
  return error.retryAfterSeconds === undefined ? headers : { ...headers, 'Retry-After': String(error.retryAfterSeconds) };
}
