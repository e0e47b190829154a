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

// One class per code, under the class of its kind (catch ConflictError for every 409, or RunNotCancellableError for one).
/** `missing_api_key` */
export class MissingApiKeyError extends AuthenticationError {}
/** `invalid_api_key` */
export class InvalidApiKeyError extends AuthenticationError {}
/** `insufficient_scope` */
export class InsufficientScopeError extends PermissionDeniedError {}
/** `method_not_allowed` */
export class MethodNotAllowedError extends RequestRejectedError {}
/** `request_timeout` */
export class RequestTimeoutError extends RequestRejectedError {}
/** `payload_too_large` */
export class PayloadTooLargeError extends RequestRejectedError {}
/** `uri_too_long` */
export class UriTooLongError extends RequestRejectedError {}
/** `unsupported_media_type` */
export class UnsupportedMediaTypeError extends RequestRejectedError {}
/** `expectation_failed` */
export class ExpectationFailedError extends RequestRejectedError {}
/** `header_fields_too_large` */
export class HeaderFieldsTooLargeError extends RequestRejectedError {}
/** `idempotency_key_reused` */
export class IdempotencyKeyReusedError extends ConflictError {}
/** `run_not_cancellable` */
export class RunNotCancellableError extends ConflictError {}
/** `run_not_waiting` */
export class RunNotWaitingError extends ConflictError {}
/** `conversation_busy` */
export class ConversationBusyError extends ConflictError {}
/** `generation_not_completed` */
export class GenerationNotCompletedError extends ConflictError {}
/** `generation_not_cancellable` */
export class GenerationNotCancellableError extends ConflictError {}
/** `endpoint_disabled` */
export class EndpointDisabledError extends ConflictError {}
/** `limit_exceeded` */
export class LimitExceededError extends ConflictError {}
/** `internal_error` */
export class UnexpectedError extends InternalServerError {}
/** `orchestrator_unavailable` */
export class OrchestratorUnavailableError extends InternalServerError {}
/** `embedding_unavailable` */
export class EmbeddingUnavailableError extends InternalServerError {}
/** `video_provider_unavailable` */
export class VideoProviderUnavailableError extends InternalServerError {}
/** `service_unavailable` */
export class ShuttingDownError extends ServiceUnavailableError {}
/** `database_unavailable` */
export class DatabaseUnavailableError extends ServiceUnavailableError {}

/** The class of each error code the API documents; an unknown code gets the class of its status. */
const CLASS_OF_CODE: Record<string, new (response: ErrorResponse) => PylonError> = {
  invalid_request: InvalidRequestError,
  missing_api_key: MissingApiKeyError,
  invalid_api_key: InvalidApiKeyError,
  insufficient_tokens: InsufficientTokensError,
  insufficient_scope: InsufficientScopeError,
  not_found: NotFoundError,
  method_not_allowed: MethodNotAllowedError,
  request_timeout: RequestTimeoutError,
  payload_too_large: PayloadTooLargeError,
  uri_too_long: UriTooLongError,
  unsupported_media_type: UnsupportedMediaTypeError,
  expectation_failed: ExpectationFailedError,
  header_fields_too_large: HeaderFieldsTooLargeError,
  idempotency_key_reused: IdempotencyKeyReusedError,
  run_not_cancellable: RunNotCancellableError,
  run_not_waiting: RunNotWaitingError,
  conversation_busy: ConversationBusyError,
  generation_not_completed: GenerationNotCompletedError,
  generation_not_cancellable: GenerationNotCancellableError,
  endpoint_disabled: EndpointDisabledError,
  limit_exceeded: LimitExceededError,
  rate_limited: RateLimitedError,
  internal_error: UnexpectedError,
  orchestrator_unavailable: OrchestratorUnavailableError,
  embedding_unavailable: EmbeddingUnavailableError,
  video_provider_unavailable: VideoProviderUnavailableError,
  service_unavailable: ShuttingDownError,
  database_unavailable: DatabaseUnavailableError,
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
