import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { RefusedUrlError, guardedLookup, type PrivateTargets } from '@pylon/webhooks';

/** The fetch the MCP SDK's transports take. */
export type GuardedFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A fetch for the MCP client that obeys the webhook receivers' private-target policy on every connection:
 * a literal address is checked before connecting, a name by the connection's own DNS lookup (so a name
 * that turns private later is refused too). Redirects are not followed (the SDK sees the 3xx). The
 * answer's body streams, so the SDK can read server-sent events.
 */
export function guardedFetch(allowed: PrivateTargets): GuardedFetch {
  const lookup = guardedLookup(allowed);
  return async (input, init = {}) => {
    const url = new URL(String(input));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusedUrlError(`refused: ${url.protocol} is not http or https`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !allowed.allows(host)) throw new RefusedUrlError(`refused: ${host} is a non-public address`);
    const method = (init.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const body = requestBody(init.body);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const request = send(url, { method, headers, lookup, ...(init.signal ? { signal: init.signal } : {}) }, (response) => {
        const answerHeaders = new Headers();
        const raw = response.rawHeaders;
        for (let i = 0; i + 1 < raw.length; i += 2) answerHeaders.append(raw[i]!, raw[i + 1]!);
        const status = response.statusCode ?? 502;
        const empty = method === 'HEAD' || status === 204 || status === 205 || status === 304;
        if (empty) response.resume();
        const stream = empty ? null : (Readable.toWeb(response) as WebReadableStream<Uint8Array> as unknown as ReadableStream<Uint8Array>);
        resolve(new Response(stream, { status, statusText: response.statusMessage ?? '', headers: answerHeaders }));
      });
      request.on('error', reject);
      request.end(body);
    });
  };
}

function requestBody(body: RequestInit['body']): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (body instanceof URLSearchParams) return body.toString();
  throw new TypeError('guardedFetch sends only string or byte bodies');
}
