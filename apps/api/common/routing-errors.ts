import type { FastifyInstance, HTTPMethods } from 'fastify';
import { ErrorCode, PylonError } from '@pylon/contracts';
import { ApiError } from './api-error';

/**
 * Longest request target (path and query) accepted: far beyond any URL of this API. Longer heads than
 * Node's `maxHeaderSize` (16 KiB) never get this far: the parser answers 431 `header_fields_too_large`.
 */
export const MAX_URL_LENGTH = 8_192;

const METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * What the router cannot answer itself: a request line without an HTTP version (HTTP/0.9, which Node
 * still serves: 400), a URL too long (414 `uri_too_long`), and a known path asked with a method it
 * does not have (405 `method_not_allowed` with `Allow`; the router would say 404).
 * Passed on by an `onRequest` hook, so the error filter writes them like every other error.
 */
export function registerRoutingErrors(fastify: FastifyInstance): void {
  // A callback hook, not an async one: every request passes here, and a promise per request is measurable (bench request-cost).
  fastify.addHook('onRequest', (request, _reply, done) => done(routingError(fastify, request.raw.httpVersionMajor, request.url, request.is404)));
}

function routingError(fastify: FastifyInstance, httpVersionMajor: number, url: string, is404: boolean): PylonError | undefined {
  if (httpVersionMajor < 1) return PylonError.invalidRequest('the request line has no HTTP version (HTTP/0.9 is not served)');
  if (url.length > MAX_URL_LENGTH) return new PylonError(ErrorCode.UriTooLong, `the URL is longer than ${MAX_URL_LENGTH} characters`);
  if (!is404) return undefined;
  const path = url.split('?', 1)[0]!;
  const allowed = METHODS.filter((method) => fastify.findRoute({ method, url: path }) !== null);
  return allowed.length > 0
    ? new ApiError(ErrorCode.MethodNotAllowed, 'this path does not take this method', { Allow: allowed.join(', ') })
    : undefined;
}
