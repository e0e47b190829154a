import { Pylon, PylonError, type Schemas } from '@pylon/sdk';
import { storedApiKey } from './session';

export type { Schemas };

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

const REFUSED_KEY = new Set(['invalid_api_key', 'missing_api_key']);
const keyRefusedListeners = new Set<(failure: ApiFailure) => void>();

/** Called when the API refuses the signed-in key itself (revoked, expired): the console then signs out, saying why. */
export function onKeyRefused(listener: (failure: ApiFailure) => void): () => void {
  keyRefusedListeners.add(listener);
  return () => keyRefusedListeners.delete(listener);
}

let client: { apiKey: string; pylon: Pylon } | undefined;

/** One SDK client per signed-in key: a new one only when the key changes (sign-in, sign-out). */
function clientFor(apiKey: string): Pylon {
  if (client?.apiKey !== apiKey) client = { apiKey, pylon: new Pylon({ apiKey, baseUrl: window.location.origin, maxRetries: 0 }) };
  return client.pylon;
}

/**
 * Calls the API through the SDK (@pylon/sdk) with the signed-in key, on this origin (the one that served the
 * console), and turns what fails into an ApiFailure; for queryFn and mutationFn. The SDK does not retry here:
 * a person sees what happened and decides (its creates still carry an Idempotency-Key each).
 */
export async function call<T>(request: (pylon: Pylon) => Promise<T>): Promise<T> {
  try {
    return await request(clientFor(storedApiKey() ?? ''));
  } catch (error) {
    const failure =
      error instanceof PylonError
        ? new ApiFailure(error.status, error.code, error.detail, error.retryAfter)
        : new ApiFailure(0, 'network_error', error instanceof Error ? error.message : String(error));
    throw reported(failure);
  }
}

/** Tells the listeners when the API refused the key itself; returns the failure, to throw. */
export function reported(failure: ApiFailure): ApiFailure {
  if (REFUSED_KEY.has(failure.code)) for (const listener of keyRefusedListeners) listener(failure);
  return failure;
}
