/** What the API said about a failed request: the `{"error": code}` body and its headers. */
export interface ErrorResponse {
  status: number;
  code: string;
  /** The `Error-Detail` header: the reason, in words. */
  detail: string | null;
  /** The `X-Request-Id` header, to quote to the operator (it is in their logs). */
  requestId: string | null;
  /** `Retry-After`, in seconds, when the API asked the caller to wait. */
  retryAfter: number | null;
}

/** Every error the API answers: its status, code, detail, request id and Retry-After. */
export class PylonError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string | null;
  readonly requestId: string | null;
  readonly retryAfter: number | null;

  constructor(response: ErrorResponse) {
    super(
      `${response.status} ${response.code}${response.detail ? `: ${response.detail}` : ''}${response.requestId ? ` (request ${response.requestId})` : ''}`,
    );
    this.name = new.target.name;
    this.status = response.status;
    this.code = response.code;
    this.detail = response.detail;
    this.requestId = response.requestId;
    this.retryAfter = response.retryAfter;
  }
}

/** 400: the request is not valid (the detail says which field). */
export class InvalidRequestError extends PylonError {}
/** 401: no API key, or one that is unknown, revoked or expired. */
export class AuthenticationError extends PylonError {}
/** 402: the organisation's token balance does not cover it. */
export class InsufficientTokensError extends PylonError {}
/** 403: the key lacks the scope. */
export class PermissionDeniedError extends PylonError {}
/** 404: no such thing, or another organisation's. */
export class NotFoundError extends PylonError {}
/** 405, 408, 413, 414, 415, 417, 431: the request's form was refused by the server itself. */
export class RequestRejectedError extends PylonError {}
/** 409: the state does not allow it (an Idempotency-Key reused with another body, a finished run cancelled, a cap reached). */
export class ConflictError extends PylonError {}
/** 429: the key is over its rate or the organisation's backlog is full; `retryAfter` says when to try again. */
export class RateLimitedError extends PylonError {}
/** 500: the server, or a service behind it (Temporal, the embedding or video provider), failed. */
export class InternalServerError extends PylonError {}
/** 503: the API process is shutting down or its database is not answering; a retry succeeds. */
export class ServiceUnavailableError extends PylonError {}

/** The class of each error code the API documents; an unknown code gets the class of its status. */
const CLASS_OF_CODE: Record<string, new (response: ErrorResponse) => PylonError> = {
  invalid_request: InvalidRequestError,
  missing_api_key: AuthenticationError,
  invalid_api_key: AuthenticationError,
  insufficient_tokens: InsufficientTokensError,
  insufficient_scope: PermissionDeniedError,
  not_found: NotFoundError,
  method_not_allowed: RequestRejectedError,
  request_timeout: RequestRejectedError,
  payload_too_large: RequestRejectedError,
  uri_too_long: RequestRejectedError,
  unsupported_media_type: RequestRejectedError,
  expectation_failed: RequestRejectedError,
  header_fields_too_large: RequestRejectedError,
  idempotency_key_reused: ConflictError,
  run_not_cancellable: ConflictError,
  generation_not_completed: ConflictError,
  generation_not_cancellable: ConflictError,
  limit_exceeded: ConflictError,
  rate_limited: RateLimitedError,
  internal_error: InternalServerError,
  orchestrator_unavailable: InternalServerError,
  embedding_unavailable: InternalServerError,
  video_provider_unavailable: InternalServerError,
  service_unavailable: ServiceUnavailableError,
  database_unavailable: ServiceUnavailableError,
};

function classOfStatus(status: number): new (response: ErrorResponse) => PylonError {
  if (status === 400) return InvalidRequestError;
  if (status === 401) return AuthenticationError;
  if (status === 402) return InsufficientTokensError;
  if (status === 403) return PermissionDeniedError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 429) return RateLimitedError;
  if (status === 503) return ServiceUnavailableError;
  if (status >= 500) return InternalServerError;
  return RequestRejectedError;
}

export function errorOf(response: ErrorResponse): PylonError {
  const Class = CLASS_OF_CODE[response.code] ?? classOfStatus(response.status);
  return new Class(response);
}

/** The request never got an answer: the connection failed or dropped. */
export class ConnectionError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'ConnectionError';
  }
}

/** No answer within the client's `timeout`. */
export class TimeoutError extends ConnectionError {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/** A webhook whose signature, timestamp or headers do not verify. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}
