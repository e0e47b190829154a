import { LlmRequestRejectedError, LlmUnavailableError } from '../llm-errors';

/** Statuses worth retrying: request timeout, conflict, rate limit, server errors and overload (Anthropic's 529). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined> | undefined;

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}

/** How long the provider asked to wait (`retry-after-ms`, or `retry-after` in seconds or as a date), capped at 10 minutes. */
export function retryAfterMs(headers: HeaderSource, now = Date.now()): number | undefined {
  const ms = Number(header(headers, 'retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0 && header(headers, 'retry-after-ms') !== undefined) return Math.min(ms, 600_000);
  const value = header(headers, 'retry-after');
  if (value === undefined) return undefined;
  const seconds = Number(value);
  const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - now;
  return Number.isFinite(wait) && wait >= 0 ? Math.min(wait, 600_000) : undefined;
}

/** A provider's HTTP error as Pylon's: retried (after its Retry-After) or refused for good. */
export function providerHttpFailure(vendor: string, status: number, message: string, headers?: HeaderSource): Error {
  const said = `${vendor} answered ${status}: ${message}`;
  return isRetryableStatus(status) ? new LlmUnavailableError(said, retryAfterMs(headers)) : new LlmRequestRejectedError(said);
}
