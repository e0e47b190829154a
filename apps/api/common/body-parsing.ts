import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * A body Fastify could not turn into JSON. Parsing never fails the request by itself, so that
 * authentication is checked first and a bad body becomes a 400 `invalid_request` afterwards.
 */
export class UnparsableBody {
  constructor(readonly reason: string) {}
}

export function registerBodyParsers(fastify: FastifyInstance, bodyLimit: number): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit },
    (_request: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
      const text = body.toString();
      if (text.trim() === '') return done(null, new UnparsableBody('the body is empty'));
      try {
        done(null, JSON.parse(text));
      } catch {
        done(null, new UnparsableBody('the body is not valid JSON'));
      }
    },
  );
  fastify.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, _body, done) => {
    done(null, new UnparsableBody('the body must be JSON (Content-Type: application/json)'));
  });
}
