export { Pylon } from './client.js';
export type { ClientOptions, RequestOptions } from './transport.js';
export {
  PylonError,
  InvalidRequestError,
  AuthenticationError,
  InsufficientTokensError,
  PermissionDeniedError,
  NotFoundError,
  RequestRejectedError,
  ConflictError,
  RateLimitedError,
  InternalServerError,
  ServiceUnavailableError,
  MissingApiKeyError,
  InvalidApiKeyError,
  InsufficientScopeError,
  MethodNotAllowedError,
  RequestTimeoutError,
  PayloadTooLargeError,
  UriTooLongError,
  UnsupportedMediaTypeError,
  ExpectationFailedError,
  HeaderFieldsTooLargeError,
  IdempotencyKeyReusedError,
  RunNotCancellableError,
  RunNotWaitingError,
  ConversationBusyError,
  GenerationNotCompletedError,
  GenerationNotCancellableError,
  EndpointDisabledError,
  LimitExceededError,
  UnexpectedError,
  OrchestratorUnavailableError,
  EmbeddingUnavailableError,
  VideoProviderUnavailableError,
  ShuttingDownError,
  DatabaseUnavailableError,
  ConnectionError,
  TimeoutError,
  WebhookVerificationError,
} from './errors.js';
export { Paginated } from './pagination.js';
export { TERMINAL_EVENTS, type RunEvent, type StreamOptions } from './run-stream.js';
export { verifyWebhook, type WebhookEvent, type WebhookHeaders, type VerifyOptions } from './webhook-verification.js';
export type { Schemas, Page } from './types.js';
export type { ToolHandler, ToolCallContext, ToolApprovalDecision, RunToolsOptions } from './run-tools.js';
export type {
  AgentRun,
  AgentRunCreate,
  AgentRunCreated,
  RequiredAction,
  RequiredToolCall,
  RunUsage,
  RunUsageTurn,
  ToolOutputsSubmit,
  ToolApprovalsSubmit,
} from './resources/agent-runs.js';
export type { Conversation, ConversationCreate, ConversationItem, ConversationRunCreate, ConversationRunCreated } from './resources/conversations.js';
export type { Agent, AgentVersion, AgentVersionCreate, ResponseFormat } from './resources/agents.js';
export type { AgentSchedule, AgentScheduleCreate, AgentScheduleUpdate, AgentScheduleListParams, ScheduledRun } from './resources/agent-schedules.js';
export type {
  KnowledgeDocument,
  KnowledgeDocumentReplace,
  KnowledgeBatch,
  KnowledgeBatchFiles,
  KnowledgeBatchTexts,
  KnowledgeFileOptions,
  KnowledgeFileUploadOptions,
} from './resources/knowledge.js';
export type { KnowledgeBase, KnowledgeBaseCreate, KnowledgeBaseUpdate } from './resources/knowledge-bases.js';
export type { FileInput, NamedFile, DownloadedFile } from './files.js';
export type { VideoGeneration } from './resources/videos.js';
export type { WebhookEndpoint, WebhookDelivery, RecoveredDeliveries } from './resources/webhooks.js';
export type { ApiKey } from './resources/api-keys.js';
export type { ModelCredential } from './resources/model-credentials.js';
export type { TokenEntry } from './resources/tokens.js';
export type { UsageReport } from './resources/usage.js';
export type { Organisation, ModelPrices, ModelPricesReplace } from './resources/admin.js';
