import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Where `npm run build` writes the console (apps/console, built by Vite). */
export const CONSOLE_DIR = join(__dirname, '..', '..', '..', 'console');

/**
 * Everything the console loads comes from this origin: its own scripts and styles, the API, and the
 * offline renderer's media. Nothing inline, no eval, no frames.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "media-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Vite names every built asset after its content hash: such a file never changes, so it may be cached for good. */
const HASHED_ASSET = /^assets\/[A-Za-z0-9_.-]+-[A-Za-z0-9_-]{8,}\.(?:js|css|svg|png|woff2?)(?:\.map)?$/;
/** The other files at the top of the build (the favicon); index.html is served only as the page below. */
const TOP_LEVEL_FILE = /^[A-Za-z0-9_-]+\.(?:svg|ico|png|txt)$/;

function secure(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CONSOLE_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY');
}

/**
 * The organisation console at /console: its hashed assets (cached for a year), its other files, and
 * index.html for every other path under it, so that a client route such as /console/runs/<id> loads
 * the app (which then routes itself). Plain Fastify routes, not Nest controllers: not part of the API,
 * so not in the OpenAPI document.
 */
export async function serveConsole(app: NestFastifyApplication, dir = CONSOLE_DIR): Promise<void> {
  if (!existsSync(join(dir, 'index.html'))) {
    new Logger('Console').warn(`the console is not built (no ${join(dir, 'index.html')}); /console answers 404`);
    return;
  }
  await app.register(async (fastify: FastifyInstance) => {
    // Its own encapsulated instance, so `reply.sendFile` exists here without clashing with the media files' registrations.
    await fastify.register(fastifyStatic, { root: dir, serve: false, index: false, dotfiles: 'deny' });
    const page = (reply: FastifyReply) => secure(reply).header('cache-control', 'no-cache').sendFile('index.html', dir, { cacheControl: false });

    fastify.get('/console', (_request, reply) => reply.redirect('/console/', 301));
    fastify.get<{ Params: { '*': string } }>('/console/*', (request, reply) => {
      const path = request.params['*'];
      if (HASHED_ASSET.test(path)) return secure(reply).sendFile(path, dir, { immutable: true, maxAge: '365d' });
      if (TOP_LEVEL_FILE.test(path)) return secure(reply).sendFile(path, dir, { maxAge: '1h' });
      // A missing file (anything with an extension) is not found; any other path is a client route.
      if (/\.[A-Za-z0-9]+$/.test(path)) return reply.callNotFound();
      return page(reply);
    });
  });
}
