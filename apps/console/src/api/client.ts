import createClient, { type Middleware } from 'openapi-fetch';
// The API's types, generated from its OpenAPI document once for the SDK and the console (e2e/sdk-typescript checks them).
import type { components, paths } from '../../../../packages/sdk/src/schema';
import { storedApiKey } from './session';

export type Schemas = components['schemas'];

/** An error answer of the API: its `{"error": code}`, the `Error-Detail` header, and the status. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string | null,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(detail ? `${code}: ${detail}` : code);
  }
}

/** Every request carries the signed-in key; the base is this origin, the one that served the console. */
const authorization: Middleware = {
  onRequest({ request }) {
    const apiKey = storedApiKey();
    if (apiKey && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${apiKey}`);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin });
api.use(authorization);

/** Turns a failed response into an ApiFailure (from any body, JSON or not). */
export async function failureOf(response: Response, body?: unknown): Promise<ApiFailure> {
  let error = body;
  if (error === undefined) error = await response.json().catch(() => undefined);
  const code =
    typeof error === 'object' && error !== null && typeof (error as { error?: unknown }).error === 'string'
      ? (error as { error: string }).error
      : `http_${response.status}`;
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ApiFailure(
    response.status,
    code,
    response.headers.get('error-detail'),
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
}

const REFUSED_KEY = new Set(['invalid_api_key', 'missing_api_key']);
const keyRefusedListeners = new Set<(failure: ApiFailure) => void>();

/** Called when the API refuses the signed-in key itself (revoked, expired): the console then signs out, saying why. */
export function onKeyRefused(listener: (failure: ApiFailure) => void): () => void {
  keyRefusedListeners.add(listener);
  return () => keyRefusedListeners.delete(listener);
}

/** The data of an openapi-fetch result, or throws its ApiFailure; for queryFn and mutationFn. */
export async function unwrap<T>(result: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let settled: { data?: T; error?: unknown; response: Response };
  try {
    settled = await result;
  } catch (cause) {
    throw new ApiFailure(0, 'network_error', cause instanceof Error ? cause.message : String(cause));
  }
  if (!settled.response.ok) {
    const failure = await failureOf(settled.response, settled.error);
    if (REFUSED_KEY.has(failure.code)) for (const listener of keyRefusedListeners) listener(failure);
    throw failure;
  }
  return settled.data as T;
}
