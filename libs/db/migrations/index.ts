import { Foundation1763700000000 } from './1763700000000-foundation';
import { Knowledge1763800000000 } from './1763800000000-knowledge';
import { VideoAndLedger1763900000000 } from './1763900000000-video-and-ledger';
import { Webhooks1764000000000 } from './1764000000000-webhooks';
import { Limits1764100000000 } from './1764100000000-limits';
import { DeliveryBacklog1764200000000 } from './1764200000000-delivery-backlog';
import { RunEvents1764500000000 } from './1764500000000-run-events';
import { KnowledgeKeywordSearch1764600000000 } from './1764600000000-knowledge-keyword-search';
import { InlineEmbeddings1764700000000 } from './1764700000000-inline-embeddings';
import { OrgRunRate1764800000000 } from './1764800000000-org-run-rate';
import { OrgVectorIndexes1764900000000 } from './1764900000000-org-vector-indexes';
import { FairAdmission1765000000000 } from './1765000000000-fair-admission';
import { TenantScopedRows1765100000000 } from './1765100000000-tenant-scoped-rows';
import { ApiKeyChanges1765200000000 } from './1765200000000-api-key-changes';
import { Usage1765300000000 } from './1765300000000-usage';
import { WebhookAttemptHeaders1765400000000 } from './1765400000000-webhook-attempt-headers';
import { IdempotentManagementCreates1765500000000 } from './1765500000000-idempotent-management-creates';
import { ConversationsAndActions1765600000000 } from './1765600000000-conversations-and-actions';
import { ConversationItemTurns1765700000000 } from './1765700000000-conversation-item-turns';
import { RunUsageAndStructuredOutputs1765800000000 } from './1765800000000-run-usage-and-structured-outputs';
import { AgentSchedules1765810000000 } from './1765810000000-agent-schedules';
import { McpHeaderReseal1765900000000 } from './1765900000000-mcp-header-reseal';
import { KnowledgeBases1766000000000 } from './1766000000000-knowledge-bases';
import { KnowledgeRevisions1766100000000 } from './1766100000000-knowledge-revisions';
import { KnowledgeFiles1766200000000 } from './1766200000000-knowledge-files';
import { ModelPriceChanges1766350000000 } from './1766350000000-model-price-changes';
import { RunEventPayloads1766400000000 } from './1766400000000-run-event-payloads';
import { ModelCredentials1766500000000 } from './1766500000000-model-credentials';

/** In order. A new migration is added here and nowhere else. */
export const MIGRATIONS = [
  Foundation1763700000000,
  Knowledge1763800000000,
  VideoAndLedger1763900000000,
  Webhooks1764000000000,
  Limits1764100000000,
  DeliveryBacklog1764200000000,
  RunEvents1764500000000,
  KnowledgeKeywordSearch1764600000000,
  InlineEmbeddings1764700000000,
  OrgRunRate1764800000000,
  OrgVectorIndexes1764900000000,
  FairAdmission1765000000000,
  TenantScopedRows1765100000000,
  ApiKeyChanges1765200000000,
  Usage1765300000000,
  WebhookAttemptHeaders1765400000000,
  IdempotentManagementCreates1765500000000,
  ConversationsAndActions1765600000000,
  ConversationItemTurns1765700000000,
  RunUsageAndStructuredOutputs1765800000000,
  AgentSchedules1765810000000,
  McpHeaderReseal1765900000000,
  KnowledgeBases1766000000000,
  KnowledgeRevisions1766100000000,
  KnowledgeFiles1766200000000,
  ModelPriceChanges1766350000000,
  RunEventPayloads1766400000000,
  ModelCredentials1766500000000,
];
