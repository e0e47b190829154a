import type { LookupAddress } from 'node:dns';
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RefusedUrlError, guardedLookup, type PrivateTargets } from './address-guard';
import { pinnedLookup, type WebhookConnectionPool } from './connection-pool';

export interface WebhookPost {
  url: URL;
  /** Every header to send, as they are (see attemptHeaders). */
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** The non-public addresses the operator allows; any other is refused. */
  privateTargets: PrivateTargets;
  /**
   * The addresses the URL's host was resolved to and checked at (resolveDeliverableUrl): the connection
   * goes to them, not to a second DNS answer. Without them, the connection's own lookup is checked.
   */
  addresses?: readonly LookupAddress[];
  /** Keep-alive connections to reuse (with `addresses` only: a socket is reused for the same pinned addresses). */
  connections?: WebhookConnectionPool;
}

export interface WebhookResponse {
  statusCode: number | null;
  durationMs: number;
  /** The first bytes of the receiver's answer. */
  excerpt: string | null;
  /** The receiver's answer's headers, bounded (see boundedHeaders); null without an answer. */
  headers: Record<string, string> | null;
  /** A network error, a timeout, or a refused address. */
  error: string | null;
  /** No request was made: the address check refused the receiver's URL or address. */
  refused: boolean;
}

const EXCERPT_BYTES = 1_024;
/** At most this many of an answer's headers are kept, each value cut to VALUE_CHARS characters. */
export const RESPONSE_HEADERS_KEPT = 30;
export const RESPONSE_HEADER_VALUE_CHARS = 500;

/**
 * An answer's headers as the delivery log keeps them: names in lower case, a repeated header's values
 * joined with ", ", the first RESPONSE_HEADERS_KEPT headers only, each value cut to RESPONSE_HEADER_VALUE_CHARS.
 */
export function boundedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers).slice(0, RESPONSE_HEADERS_KEPT)) {
    if (value === undefined) continue;
    kept[name] = (Array.isArray(value) ? value.join(', ') : value).slice(0, RESPONSE_HEADER_VALUE_CHARS);
  }
  return kept;
}

/** Errors of a kept-alive socket that the receiver closed as it was reused: the request never reached it. */
const STALE_SOCKET_ERRORS = new Set(['ECONNRESET', 'EPIPE']);

/**
 * One POST to a receiver. With pinned `addresses`, the connection goes to those checked addresses (and,
 * with `connections`, reuses a kept-alive socket to the same ones); without, the connection's own DNS
 * lookup is checked too. Either way a name that resolves to a private address at delivery time (DNS
 * rebinding) is refused even though it passed when saved. A reused socket that the receiver had closed
 * (it failed before any answer) is retried once on a new connection, as a new connection would have been made.
 */
export function postWebhook(post: WebhookPost): Promise<WebhookResponse> {
  const started = Date.now();
  const send = post.url.protocol === 'https:' ? httpsRequest : httpRequest;
  const lookup = post.addresses ? pinnedLookup(post.addresses, post.privateTargets) : guardedLookup(post.privateTargets);
  const agent = post.addresses && post.connections ? post.connections.agentFor(post.url, post.addresses) : undefined;
  return new Promise((resolve) => {
    const finish = (response: Omit<WebhookResponse, 'durationMs' | 'refused'>, refused = false) =>
      resolve({ ...response, refused, durationMs: Date.now() - started });
    const attempt = (reuse: boolean): void => {
      let answered = false;
      const request: ClientRequest = send(
        post.url,
        {
          method: 'POST',
          headers: post.headers,
          timeout: post.timeoutMs,
          lookup,
          // A retry after a stale kept-alive socket opens a connection of its own.
          ...(agent ? { agent: reuse ? agent : false } : {}),
        },
        (response) => {
          answered = true;
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            if (size < EXCERPT_BYTES) chunks.push(chunk);
            size += chunk.length;
          });
          response.on('end', () =>
            finish({
              statusCode: response.statusCode ?? null,
              excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'),
              headers: boundedHeaders(response.headers),
              error: null,
            }),
          );
          response.on('error', (error) =>
            finish({ statusCode: response.statusCode ?? null, excerpt: null, headers: boundedHeaders(response.headers), error: error.message }),
          );
        },
      );
      request.on('timeout', () => request.destroy(new Error(`timed out after ${post.timeoutMs} ms`)));
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (reuse && request.reusedSocket && !answered && STALE_SOCKET_ERRORS.has(error.code ?? '')) return attempt(false);
        finish({ statusCode: null, excerpt: null, headers: null, error: error.message }, error instanceof RefusedUrlError);
      });
      request.end(post.body);
    };
    attempt(true);
  });
}
