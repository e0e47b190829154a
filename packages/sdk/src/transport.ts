import { ConnectionError, PylonError, TimeoutError, errorOf } from './errors.js';

export interface ClientOptions {
  /** Defaults to the `PYLON_API_KEY` environment variable (on Node). */
  apiKey?: string;
  /** Defaults to `PYLON_URL`, then `http://127.0.0.1:3000`. */
  baseUrl?: string;
  /** How many times a request that may be retried is tried again (default 2). */
  maxRetries?: number;
  /** Milliseconds one attempt may take before it counts as failed (default 60 000). */
  timeout?: number;
  /** Another fetch (a test double, a proxy agent); the global one by default. */
  fetch?: typeof fetch;
}

export type Query = Record<string, string | number | boolean | readonly (string | number)[] | undefined | null>;

export interface RequestOptions {
  query?: Query;
  /** JSON-encoded, or a `FormData` sent as multipart/form-data as it is (its parts are Blobs, so every retry re-sends it whole). */
  body?: unknown;
  /** Creates send one, generated once per call and kept across its retries, so that a retry never creates twice. */
  idempotencyKey?: string;
  /** A POST that does the same however often it arrives (a search, a cancel): retried like a read. */
  repeatable?: boolean;
  headers?: Record<string, string>;
  /** Overrides the client's, for this call. */
  maxRetries?: number;
  timeout?: number;
  signal?: AbortSignal;
}

const RETRY_BASE_MS = 500;
const RETRY_MAX_MS = 8_000;

function environment(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.[name] || undefined;
}

/** A random UUID (v4), from Web Crypto: Node ≥ 20 and every browser have it. */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * One HTTP exchange with the API, retried as is safe: a `429` always (the API refused before doing anything)
 * after its `Retry-After`; a `503` or a lost connection only when repeating cannot do a thing twice (a read,
 * a delete, or a create carrying its Idempotency-Key), with exponential backoff and jitter.
 */
export class Transport {
  readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly maxRetries: number;
  private readonly timeout: number;
  private readonly fetch: typeof fetch;

  constructor(options: ClientOptions = {}) {
    this.apiKey = options.apiKey ?? environment('PYLON_API_KEY');
    this.baseUrl = (options.baseUrl ?? environment('PYLON_URL') ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
    this.maxRetries = options.maxRetries ?? 2;
    this.timeout = options.timeout ?? 60_000;
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  url(path: string, query?: Query): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) value.forEach((item, index) => search.append(`${name}[${index}]`, String(item)));
      else search.append(name, String(value));
    }
    const rendered = search.toString();
    return `${this.baseUrl}${path}${rendered ? `?${rendered}` : ''}`;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}), ...extra };
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.send(method, path, options);
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** The response of the first attempt that got an answer the caller should see; throws the API's error otherwise. */
  async send(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const headers = this.headers({ accept: 'application/json', ...options.headers });
    if (options.body !== undefined && !isFormData(options.body)) headers['content-type'] = 'application/json';
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    const repeatable = method === 'GET' || method === 'DELETE' || !!options.idempotencyKey || !!options.repeatable;
    const maxRetries = options.maxRetries ?? this.maxRetries;
    const timeout = options.timeout ?? this.timeout;
    for (let attempt = 0; ; attempt++) {
      let failure: PylonError | ConnectionError;
      try {
        const response = await this.attempt(method, this.url(path, options.query), headers, options.body, timeout, options.signal);
        if (response.ok) return response;
        failure = await failureOf(response);
      } catch (error) {
        if (!(error instanceof ConnectionError)) throw error;
        failure = error;
      }
      const retryable = failure instanceof PylonError ? failure.status === 429 || (failure.status === 503 && repeatable) : repeatable;
      if (!retryable || attempt >= maxRetries) throw failure;
      await sleep(delayBefore(attempt, failure instanceof PylonError ? failure.retryAfter : null), options.signal);
    }
  }

  /** Opens a run's event stream (one attempt; the caller reconnects), after the event numbered `after`. */
  async openStream(path: string, after: number, signal?: AbortSignal): Promise<Response> {
    const headers = this.headers({ accept: 'text/event-stream', ...(after > 0 ? { 'last-event-id': String(after) } : {}) });
    try {
      return await this.fetch(this.url(path), { method: 'GET', headers, signal });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new ConnectionError(`GET ${path} failed: ${(error as Error).message}`, error);
    }
  }

  private async attempt(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: unknown,
    timeout: number,
    signal?: AbortSignal,
  ): Promise<Response> {
    const timer = AbortSignal.timeout(timeout);
    try {
      return await this.fetch(url, {
        method,
        headers,
        // fetch encodes a FormData anew on each call (with its own boundary in the content-type it sets).
        body: body === undefined ? undefined : isFormData(body) ? body : JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timer]) : timer,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (timer.aborted) throw new TimeoutError(timeout);
      throw new ConnectionError(`${method} ${url} failed: ${(error as Error).message}`, error);
    }
  }
}

function isFormData(body: unknown): body is FormData {
  return typeof FormData !== 'undefined' && body instanceof FormData;
}

export async function failureOf(response: Response): Promise<PylonError> {
  const body = (await response.json().catch(() => undefined)) as { error?: unknown } | undefined;
  const retryAfter = Number(response.headers.get('retry-after'));
  return errorOf({
    status: response.status,
    code: typeof body?.error === 'string' ? body.error : `http_${response.status}`,
    detail: response.headers.get('error-detail'),
    requestId: response.headers.get('x-request-id'),
    retryAfter: Number.isFinite(retryAfter) && retryAfter >= 0 && response.headers.has('retry-after') ? retryAfter : null,
  });
}

/** Retry-After when the API gave one; otherwise exponential backoff with full jitter. */
export function delayBefore(attempt: number, retryAfterSeconds: number | null): number {
  if (retryAfterSeconds !== null) return retryAfterSeconds * 1000;
  return Math.random() * Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** attempt);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}
