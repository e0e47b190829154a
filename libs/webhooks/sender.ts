import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RefusedUrlError, guardedLookup, type PrivateTargets } from './address-guard';

export interface WebhookPost {
  url: URL;
  /** Every header to send, as they are (see attemptHeaders). */
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** The non-public addresses the operator allows; any other is refused. */
  privateTargets: PrivateTargets;
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

/**
 * One POST to a receiver. The connection's own DNS lookup is checked too, so a name that resolves to
 * a private address at delivery time (DNS rebinding) is refused even though it passed when saved.
 */
export function postWebhook(post: WebhookPost): Promise<WebhookResponse> {
  const started = Date.now();
  const send = post.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const finish = (response: Omit<WebhookResponse, 'durationMs' | 'refused'>, refused = false) =>
      resolve({ ...response, refused, durationMs: Date.now() - started });
    const request = send(
      post.url,
      {
        method: 'POST',
        headers: post.headers,
        timeout: post.timeoutMs,
        lookup: guardedLookup(post.privateTargets),
      },
      (response) => {
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
    request.on('error', (error) =>
      finish({ statusCode: null, excerpt: null, headers: null, error: error.message }, error instanceof RefusedUrlError),
    );
    request.end(post.body);
  });
}
