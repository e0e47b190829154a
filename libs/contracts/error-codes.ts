/**
 * The `error` codes of the wire contract: `{"error": "<code>"}`.
 * The HTTP status of each lives in one place, the API's exception filter.
 */
export enum ErrorCode {
  InvalidRequest = 'invalid_request',
  MissingApiKey = 'missing_api_key',
  InvalidApiKey = 'invalid_api_key',
  InsufficientScope = 'insufficient_scope',
  NotFound = 'not_found',
  /** The path exists, but not with this method (the `Allow` header lists the methods it has). */
  MethodNotAllowed = 'method_not_allowed',
  /** The client did not send the whole request in time. */
  RequestTimeout = 'request_timeout',
  IdempotencyKeyReused = 'idempotency_key_reused',
  RunNotCancellable = 'run_not_cancellable',
  /** Tool outputs or approvals for a run that waits for none (or for the other kind). */
  RunNotWaiting = 'run_not_waiting',
  /** A conversation's turn with `if_busy: reject` while an earlier turn is not final. */
  ConversationBusy = 'conversation_busy',
  /** The organisation already has a knowledge base of that name. */
  KnowledgeBaseNameTaken = 'knowledge_base_name_taken',
  /** Deleting a knowledge base that still holds documents, without `cascade=true`. */
  KnowledgeBaseNotEmpty = 'knowledge_base_not_empty',
  PayloadTooLarge = 'payload_too_large',
  UriTooLong = 'uri_too_long',
  /** A body that is not `application/json`, or a Content-Type header that is not a media type. */
  UnsupportedMediaType = 'unsupported_media_type',
  /** An `Expect` header other than `100-continue`. */
  ExpectationFailed = 'expectation_failed',
  /** The request line and headers together exceed what the HTTP parser accepts. */
  HeaderFieldsTooLarge = 'header_fields_too_large',
  InsufficientTokens = 'insufficient_tokens',
  GenerationNotCompleted = 'generation_not_completed',
  /** Cancelling a generation that already completed or failed. */
  GenerationNotCancellable = 'generation_not_cancellable',
  /** The webhook endpoint is disabled: enable it before recovering its deliveries. */
  EndpointDisabled = 'endpoint_disabled',
  /** An organisation's cap (webhook endpoints, test events per minute) is reached. */
  LimitExceeded = 'limit_exceeded',
  /** The API key sent more requests than its rate limit allows. */
  RateLimited = 'rate_limited',
  VideoProviderUnavailable = 'video_provider_unavailable',
  OrchestratorUnavailable = 'orchestrator_unavailable',
  EmbeddingUnavailable = 'embedding_unavailable',
  /** The API process is shutting down; another replica (or this one, restarted) answers a retry. */
  ServiceUnavailable = 'service_unavailable',
  /** PostgreSQL is not answering (restarting, failing over, unreachable): retry shortly, with the same Idempotency-Key. */
  DatabaseUnavailable = 'database_unavailable',
  InternalError = 'internal_error',
}
