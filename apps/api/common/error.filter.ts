import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '@pylon/contracts';
import { InvalidCursorError, isDatabaseUnavailable } from '@pylon/db';
import { EmbeddingError } from '@pylon/embeddings';
import { LimitExceededError, RetryLaterError } from '@pylon/limits';
import { truncate } from '@pylon/logging';
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

interface Classified {
  code: ErrorCode;
  detail?: string;
  headers?: Readonly<Record<string, string>>;
}

/**
 * The one place an error becomes a response: exactly `{"error": "<code>"}` with its status, the reason
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
    const { code, detail, headers } = this.classify(exception);
    if (statusOf(code) >= 500) {
      // The error goes through the logger's error serializer, which keeps its code, message and
      // constraint but never a database error's parameters or the row it quotes.
      this.logger.error({ err: exception, method: request.method, url: truncate(request.url, 300) }, `request ${request.id} failed: ${code}`);
    }
    for (const [name, value] of Object.entries(headers ?? {})) reply.header(name, value);
    if (detail) reply.header('Error-Detail', detail.replace(/[^\x20-\x7e]/g, '?').slice(0, 300));
    void reply.status(statusOf(code)).header('content-type', 'application/json; charset=utf-8').send(errorBodyOf(code));
  }

  private classify(exception: unknown): Classified {
    if (exception instanceof ApiError) return { code: exception.code, detail: exception.detail, headers: exception.headers };
    if (exception instanceof LimitExceededError) return { code: ErrorCode.LimitExceeded, detail: exception.message };
    if (exception instanceof RetryLaterError) {
      return { code: ErrorCode.RateLimited, detail: exception.message, headers: { 'Retry-After': String(exception.retryAfterSeconds) } };
    }
    if (exception instanceof InvalidCursorError) return { code: ErrorCode.InvalidRequest, detail: exception.message };
    if (exception instanceof EmbeddingError) return { code: ErrorCode.EmbeddingUnavailable, detail: exception.message };
    if (isDatabaseUnavailable(exception)) {
      return {
        code: ErrorCode.DatabaseUnavailable,
        detail: 'the database is not answering; retry shortly (with the same Idempotency-Key)',
        headers: { 'Retry-After': '1' },
      };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = codeOfFastifyError(undefined, status);
      return code ? { code, detail: status === 404 ? 'no such route' : exception.message } : { code: ErrorCode.InternalError };
    }
    const fastify = exception as { code?: string; statusCode?: number; message?: string };
    const code =
      typeof fastify?.code === 'string' || typeof fastify?.statusCode === 'number' ? codeOfFastifyError(fastify.code, fastify.statusCode) : undefined;
    return code ? { code, detail: (fastify.code && DETAIL_WITHOUT_INPUT[fastify.code]) ?? fastify.message } : { code: ErrorCode.InternalError };
  }
}
