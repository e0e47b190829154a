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
  IdempotencyKeyReused = 'idempotency_key_reused',
  RunNotCancellable = 'run_not_cancellable',
  PayloadTooLarge = 'payload_too_large',
  InsufficientTokens = 'insufficient_tokens',
  GenerationNotCompleted = 'generation_not_completed',
  /** Cancelling a generation that already completed or failed. */
  GenerationNotCancellable = 'generation_not_cancellable',
  /** An organisation's cap (webhook endpoints, test events per minute) is reached. */
  LimitExceeded = 'limit_exceeded',
  /** The API key sent more requests than its rate limit allows. */
  RateLimited = 'rate_limited',
  VideoProviderUnavailable = 'video_provider_unavailable',
  OrchestratorUnavailable = 'orchestrator_unavailable',
  EmbeddingUnavailable = 'embedding_unavailable',
  InternalError = 'internal_error',
}
