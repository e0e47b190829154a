import { ApiFailure } from './api/client';

/** What each error code of the API means to a person (the API's codes are in docs/api.md). */
const WORDS: Record<string, string> = {
  invalid_request: 'The request was not valid.',
  missing_api_key: 'No API key was sent. Sign in again.',
  invalid_api_key: 'This API key is not valid: unknown, revoked or expired.',
  insufficient_scope: 'This API key does not have the scope this needs.',
  not_found: 'Not found. It may have been deleted, or it belongs to another organisation.',
  method_not_allowed: 'The API does not allow this action here.',
  request_timeout: 'The request took too long to arrive.',
  idempotency_key_reused: 'This idempotency key was already used for a different request.',
  run_not_cancellable: 'This run has already finished, so it cannot be cancelled.',
  run_not_waiting: 'This run is not waiting for that any more: it was answered already, or it ended.',
  conversation_busy: 'An earlier turn of this conversation is not finished yet.',
  payload_too_large: 'This is too large for the API.',
  uri_too_long: 'The address of this request is too long.',
  unsupported_media_type: 'The API does not take this kind of content.',
  header_fields_too_large: 'The request headers are too large.',
  knowledge_base_name_taken: 'A knowledge base of this organisation already has this name.',
  knowledge_base_not_empty: 'This knowledge base still holds documents.',
  insufficient_tokens: 'The organisation does not have enough tokens for this.',
  generation_not_completed: 'Only a completed video can be extended.',
  endpoint_disabled: 'This webhook endpoint is disabled: enable it first.',
  generation_not_cancellable: 'This video has already finished, so it cannot be cancelled.',
  limit_exceeded: 'A limit of the organisation is reached.',
  rate_limited:
    'Too much at once: this API key is over its rate, or the organisation has as much work waiting as it may. Wait a moment and try again.',
  internal_error: 'The server failed. Try again; if it keeps failing, tell the operator.',
  orchestrator_unavailable: 'The workflow engine (Temporal) is not answering; nothing was created. Try again shortly.',
  embedding_unavailable: 'The embedding provider is not available, so search cannot run.',
  service_unavailable: 'The server is restarting. Try again.',
  database_unavailable: 'The database is not answering right now. Try again in a moment.',
  network_error: 'The server could not be reached.',
};

/** A sentence for any error: the code's meaning, then the server's own reason (Error-Detail) when it gave one. */
export function describeError(error: unknown): string {
  if (error instanceof ApiFailure) {
    const words = WORDS[error.code] ?? `The request failed (HTTP ${error.status}, ${error.code}).`;
    const retry = error.retryAfterSeconds ? ` Try again in ${error.retryAfterSeconds} s.` : '';
    return error.detail ? `${words} ${capitalise(error.detail)}.${retry}` : `${words}${retry}`;
  }
  return error instanceof Error ? error.message : String(error);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1).replace(/\.$/, '');
}
