export * from './entities';
export { createDataSource, runMigrations } from './data-source';
export { prepared, onStatementSent, statementLabel, MAX_STATEMENT_LABELS, OTHER_STATEMENTS, type StatementListener } from './prepared-statements';
export { DbModule, type DbModuleOptions } from './db.module';
export { AgentRepository, type CreateIdempotency, type NewAgentVersion } from './repositories/agent.repository';
export { AgentRunRepository, type NewAgentRun } from './repositories/agent-run.repository';
export { Outbox, type EventFactory, type DescribedEvent, type SubscriptionFilter } from './repositories/outbox';
export { AgentScheduleRepository, type AgentScheduleChanges } from './repositories/agent-schedule.repository';
export { RunEventRepository, type StoredRunEvent } from './repositories/run-event.repository';
export { type NewRunEvent } from './repositories/agent-run-row';
export {
  ConversationRepository,
  type ConversationItem,
  type ConversationItemType,
  type ItemPosition,
  type NewConversationItem,
} from './repositories/conversation.repository';
export { RunActionRepository, type NewRunAction, type RunAction, type RunActionStatus } from './repositories/run-action.repository';
export { RunUsageRepository, type NewRunTurnUsage, type RunTurnUsage } from './repositories/run-usage.repository';
export { ModelPriceRepository, type ModelPrice } from './repositories/model-price.repository';
export { ModelPriceChanges } from './model-price-changes';
export { ChangeAnnouncements } from './change-announcements';
export { RunEventNotifications, type RunAnnouncement } from './run-event-notifications';
export { ApiKeyChanges } from './api-key-changes';
export { isDatabaseUnavailable } from './connection-errors';
export { RUN_EVENTS_CHANNEL } from './migrations/1764500000000-run-events';
export { ApiKeyRepository } from './repositories/api-key.repository';
export { OrganizationRepository } from './repositories/organization.repository';
export { OrgLimitsRepository, type OrgLimitChanges } from './repositories/org-limits.repository';
export { RateLimitStore, RATE_LIMIT_TABLE } from './rate-limit-store';
export { KeyRateBucketRepository, type BucketTake } from './repositories/key-rate-bucket.repository';
export { CURSOR_PATTERN, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, InvalidCursorError, type Page, type PageRequest } from './pagination';
export {
  KnowledgeVectorIndexRepository,
  vectorIndexDdl,
  vectorIndexName,
  type VectorIndexRecord,
  type VectorIndexStatus,
} from './repositories/knowledge-vector-index.repository';
export { KnowledgeBaseRepository, type KnowledgeBaseChanges } from './repositories/knowledge-base.repository';
export {
  KnowledgeDocumentRepository,
  type NewKnowledgeDocument,
  type EmbeddedChunk,
  type EmbeddingProgress,
  type RevisionFields,
  type ReplacementRecord,
  type RevisionAcceptance,
  type PublishedChunks,
} from './repositories/knowledge-document.repository';
export { KnowledgeBatchRepository, type BatchDocumentRow, type NewKnowledgeBatch } from './repositories/knowledge-batch.repository';
export { KnowledgeChunkRepository, type ChunkMatch, type ChunkQueryMatch, type DraftChunk } from './repositories/knowledge-chunk.repository';
export {
  knowledgeSearchStatement,
  RRF_K,
  type ChunkQuery,
  type IndexTuning,
  type SearchPlan,
  type SearchStatement,
} from './repositories/knowledge-search.sql';
export { LedgerRepository, InsufficientTokensError, type EntryReference } from './repositories/ledger.repository';
export { VideoGenerationRepository, type NewVideoGeneration, type VideoOutcome } from './repositories/video-generation.repository';
export { WebhookEndpointRepository, type EndpointChanges } from './repositories/webhook-endpoint.repository';
export {
  WebhookDeliveryRepository,
  type AttemptOfDelivery,
  type AttemptRecord,
  type DeliveryContext,
  type DeliveryFilter,
  type EventDeliveries,
} from './repositories/webhook-delivery.repository';
export {
  UsageRepository,
  USAGE_SQL,
  type FailingEndpointRow,
  type FailureKind,
  type FailureRow,
  type KeyRequestCount,
  type KeyRequestRow,
  type RunCounts,
  type ModelTurnCounts,
  type UsageWindows,
  type WindowRow,
} from './repositories/usage.repository';
export { Transactions } from './transactions';
