import { MIMEType } from 'node:util';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { PylonError, ErrorCode } from '@pylon/contracts';
import { scanJson } from './json-scan';
import { unstorableReason } from './storable-json';

/**
 * A JSON body that breaks one of JSON_BODY_LIMITS (nesting, keys per object, items per array, values)
 * is refused at once, before authentication and before anything parses it: 400 `invalid_request`
 * naming the limit. Every other fault becomes its error after authentication (parsing never fails the
 * request by itself):
 * - 400 `invalid_request`: text that is not JSON; an object that repeats a key (which one counts is up
 *   to each parser: `{"org_id": <theirs>, …, "org_id": <mine>}` may read differently in a gateway before
 *   us); a key that would reach an object's prototype in JavaScript (`__proto__`,
 *   `constructor.prototype`); text PostgreSQL cannot store or a number it would not store as sent; bytes
 *   that are not UTF-8; two Content-Type headers;
 * - 415 `unsupported_media_type`: a body that is not JSON at all, JSON declared in another charset than
 *   UTF-8 (which it would be read as, garbling its text), or a body with a Content-Encoding.
 * (A Content-Type header that is not a media type at all is refused by Fastify before that: 415 too.)
 */
export class UnparsableBody {
  constructor(
    readonly reason: string,
    readonly code: ErrorCode.InvalidRequest | ErrorCode.UnsupportedMediaType = ErrorCode.InvalidRequest,
  ) {}
}

/** Refuses bytes that are not UTF-8 instead of turning them into U+FFFD, which would be stored as if sent. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

export function registerBodyParsers(fastify: FastifyInstance, bodyLimit: number): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit },
    (request: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
      const framing = framingProblem(request);
      if (framing) return done(null, framing);
      const charset = declaredCharset(request.headers['content-type']);
      if (charset && charset !== 'utf-8' && charset !== 'utf8') {
        return done(null, new UnparsableBody('JSON bodies are UTF-8; the Content-Type declares another charset', ErrorCode.UnsupportedMediaType));
      }
      const scan = scanJson(body as Buffer);
      if (scan.limit) return done(PylonError.invalidRequest(scan.limit));
      let text: string;
      try {
        text = STRICT_UTF8.decode(body as Buffer);
      } catch {
        return done(null, new UnparsableBody('the body is not valid UTF-8'));
      }
      if (text.trim() === '') return done(null, new UnparsableBody('the body is empty'));
      let parsed: unknown;
      try {
        parsed = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
      } catch {
        return done(
          null,
          new UnparsableBody(
            isJson(text)
              ? 'the body has a "__proto__" or "constructor.prototype" key, which no request of this API takes'
              : 'the body is not valid JSON',
          ),
        );
      }
      const duplicate = scan.duplicateKey;
      if (duplicate) {
        return done(
          null,
          new UnparsableBody(`the body repeats the key ${JSON.stringify(duplicate.key)} in one object (again at byte ${duplicate.offset})`),
        );
      }
      const unstorable = scan.inexactNumber ?? unstorableReason(parsed);
      done(null, unstorable ? new UnparsableBody(unstorable) : parsed);
    },
  );
  fastify.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (request, _body, done) => {
    done(
      null,
      framingProblem(request) ?? new UnparsableBody('the body must be JSON (Content-Type: application/json)', ErrorCode.UnsupportedMediaType),
    );
  });
}

/**
 * What makes the body's headers ambiguous or its bytes unreadable, whatever the type: a Content-Encoding
 * (this API decodes none, and would otherwise read gzip as JSON text: 415, as RFC 9110 says), or two
 * Content-Type headers (Node keeps the first; a gateway before us may have read the second).
 */
function framingProblem(request: FastifyRequest): UnparsableBody | null {
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    return new UnparsableBody('the body has a Content-Encoding, which this API does not decode: send it unencoded', ErrorCode.UnsupportedMediaType);
  }
  const raw = request.raw.rawHeaders;
  let contentTypes = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 12 && raw[i]!.toLowerCase() === 'content-type') contentTypes++;
  return contentTypes > 1 ? new UnparsableBody('the request has more than one Content-Type header') : null;
}

/** The Content-Type's charset parameter, lower-cased, or null when it has none. */
function declaredCharset(contentType: string | undefined): string | null {
  if (!contentType?.includes(';')) return null; // no parameters: nothing to parse on the common path
  try {
    return new MIMEType(contentType).params.get('charset')?.toLowerCase() ?? null;
  } catch {
    return null; // Fastify has already refused a Content-Type that is not a media type.
  }
}

/** Whether the text parses as JSON at all (secure-json-parse throws the same SyntaxError for a prototype key). */
function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
