import type { PylonError } from '@pylon/contracts';

/** The routes that speak OpenAI's API, and so answer its error body instead of Pylon's. */
const OPENAI_ROUTES = /^\/v1\/(?:responses|models|chat\/completions)(?:[/?]|$)/;

export function speaksOpenAi(url: string): boolean {
  return OPENAI_ROUTES.test(url);
}

/** OpenAI's `error.type` for a status, as its SDKs and clients read it. */
function errorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 402) return 'insufficient_quota';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/**
 * `{"error": {message, type, param, code}}` as OpenAI answers it: the message is the reason Pylon gives in
 * `Error-Detail` (it names no stored data), `code` Pylon's error code unless the error has OpenAI's own.
 */
export function openAiErrorBody(error: PylonError, status: number) {
  const own = error as PylonError & { param?: string; openAiCode?: string };
  return {
    error: {
      message: error.detail ?? error.code,
      type: errorType(status),
      param: own.param ?? null,
      code: own.openAiCode ?? error.code,
    },
  };
}
