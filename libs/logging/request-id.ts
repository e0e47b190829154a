import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { REQUEST_ID_KEY } from './logger-options';

export const REQUEST_ID_HEADER = 'x-request-id';

/** A caller's request id worth keeping: short, and nothing a log line or a header could be fooled by. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of a request: the caller's `X-Request-Id` when it is sane, otherwise a new UUID. */
export function requestIdFor(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

/** The id of the request being handled, for every log line written while handling it (see requestIdMixin). */
const currentRequestId = new AsyncLocalStorage<string>();

/** Runs `handle` (and everything it starts) as the handling of request `id`. */
export function runForRequest<T>(id: string, handle: () => T): T {
  return currentRequestId.run(id, handle);
}

/**
 * pino's `mixin`: adds the current request's id to a line written while handling one. A request costs
 * one AsyncLocalStorage entry, where a child logger per request (nestjs-pino's `runInContext`) cost a
 * logger with its own redaction built for every request, whether it wrote a line or not.
 */
export function requestIdMixin(): Record<string, string> {
  const id = currentRequestId.getStore();
  return id === undefined ? {} : { [REQUEST_ID_KEY]: id };
}
