import type { FastifyInstance } from 'fastify';

/** What the API answers may carry a secret (a new key, a webhook secret) and is for the caller alone. */
const API_PATHS = /^\/(?:api|admin|v1)\//;
const DOCS_PATHS = /^\/docs(?:[/?#]|$)/;
/** Rendered media: capability URLs, which a browser may keep but a shared cache may not. */
const MEDIA_PATHS = /^\/media\//;

/** Swagger UI's page: its own scripts and styles (it sets some styles inline), nothing framed, nothing sent elsewhere. */
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Headers every response gets by where it comes from: `nosniff` everywhere; API answers are never stored
 * by a browser or a proxy (`no-store`: a created key's or endpoint's secret must not sit in a cache) unless
 * the route chose its own caching (an event stream); the API docs page gets a strict CSP and cannot be
 * framed; a rendered video or thumbnail is `private`. The console sets its own where it is served.
 */
export function registerSecurityHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    const path = request.url;
    if (API_PATHS.test(path) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    if (MEDIA_PATHS.test(path) && reply.statusCode === 200) reply.header('cache-control', 'private, max-age=86400');
    if (DOCS_PATHS.test(path)) {
      reply.header('content-security-policy', DOCS_CSP).header('x-frame-options', 'DENY').header('referrer-policy', 'no-referrer');
    }
    done(null, payload);
  });
}
