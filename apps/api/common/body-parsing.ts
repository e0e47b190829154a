import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unstorableReason } from './storable-json';

/**
 * A body Fastify could not turn into JSON, or JSON that nests too deep or holds text PostgreSQL cannot
 * store (one rule for every endpoint). Parsing never fails the request by itself, so that
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
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return done(null, new UnparsableBody('the body is not valid JSON'));
      }
      const unstorable = unstorableReason(parsed);
      done(null, unstorable ? new UnparsableBody(unstorable) : parsed);
    },
  );
  fastify.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, _body, done) => {
    done(null, new UnparsableBody('the body must be JSON (Content-Type: application/json)'));
  });
}
