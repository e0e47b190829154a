import type { LumaErrorBody } from './luma-api';
import { VideoProviderRejectedError, VideoProviderTransientError } from './video-provider-errors';

/** Statuses worth retrying: request timeout, conflict, rate limit, and server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

export interface LumaHttpOptions {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
}

/**
 * One JSON call to the Dream Machine API with the Bearer key, bounded by `timeoutMs` (body
 * included). Classifies every failure: 400/401/403/404/422 and other 4xx → rejected (401/403 name
 * the API key); 408/409/429/5xx, timeouts and network errors → transient; a 2xx that is not JSON → rejected.
 */
export async function lumaJson(options: LumaHttpOptions, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
  const what = `${method} ${path}`;
  const url = `${options.baseUrl.replace(/\/+$/, '')}${path}`;
  let status: number;
  let text: string;
  try {
    const response = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${options.apiKey}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs),
      redirect: 'follow',
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    if (isTimeout(error)) {
      throw new VideoProviderTransientError(`Luma ${what} timed out after ${options.timeoutMs} ms`, { cause: error });
    }
    throw new VideoProviderTransientError(`Luma ${what} could not be reached: ${describe(error)}`, { cause: error });
  }

  if (status < 200 || status >= 300) throw statusError(what, status, text);
  if (method === 'DELETE' && text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new VideoProviderRejectedError(`Luma ${what} answered ${status} with a body that is not JSON: ${clip(text)}`, { cause: error });
  }
}

function statusError(what: string, status: number, text: string): Error {
  const detail = errorDetail(text);
  if (status === 401 || status === 403) {
    return new VideoProviderRejectedError(`Luma refused the API key (LUMA_API_KEY) with ${status} on ${what}: ${detail}`);
  }
  const message = `Luma answered ${status} to ${what}: ${detail}`;
  return isRetryableStatus(status) ? new VideoProviderTransientError(message) : new VideoProviderRejectedError(message);
}

/** `detail` from Luma's error body (a string, or FastAPI's list of `{ msg }`), else the raw text. */
function errorDetail(text: string): string {
  try {
    const { detail } = JSON.parse(text) as LumaErrorBody;
    if (typeof detail === 'string') return clip(detail);
    if (Array.isArray(detail)) {
      return clip(
        detail.map((item: unknown) => (item && typeof item === 'object' && 'msg' in item ? String(item.msg) : JSON.stringify(item))).join('; '),
      );
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  return clip(text) || '(empty body)';
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || (error.cause instanceof Error && error.cause.name === 'TimeoutError'));
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

function clip(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
