import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode } from '@pylon/contracts';
import { unstorableReason } from './storable-json';

/**
 * A body Fastify could not turn into JSON, or JSON that nests too deep or holds text PostgreSQL cannot
 * store (one rule for every endpoint): 400 `invalid_request`; or a body that is not JSON at all: 415
 * `unsupported_media_type`. Parsing never fails the request by itself, so that authentication is
 * checked first and a bad body becomes its error afterwards. (A Content-Type header that is not a
 * media type at all is refused by Fastify before that: 415 too.)
 */
export class UnparsableBody {
  constructor(
    readonly reason: string,
    readonly code: ErrorCode.InvalidRequest | ErrorCode.UnsupportedMediaType = ErrorCode.InvalidRequest,
  ) {}
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
    done(null, new UnparsableBody('the body must be JSON (Content-Type: application/json)', ErrorCode.UnsupportedMediaType));
  });
}
