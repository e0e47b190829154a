import { Agent } from './agent.entity';
import { AgentRun } from './agent-run.entity';
import { AgentSchedule } from './agent-schedule.entity';
import { AgentVersion } from './agent-version.entity';
import { Conversation } from './conversation.entity';
import { ApiKey } from './api-key.entity';
import { Organization } from './organization.entity';
import { OrgLimits } from './org-limits.entity';
import { KnowledgeBase } from './knowledge-base.entity';
import { KnowledgeBatch } from './knowledge-batch.entity';
import { KnowledgeDocument } from './knowledge-document.entity';
import { PylonEvent } from './event.entity';
import { TokenEntry } from './token-entry.entity';
import { VideoGeneration } from './video-generation.entity';
import { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from './webhook.entities';

export {
  Agent,
  AgentRun,
  AgentSchedule,
  AgentVersion,
  ApiKey,
  Conversation,
  KnowledgeBase,
  KnowledgeBatch,
  KnowledgeDocument,
  Organization,
  OrgLimits,
  PylonEvent,
  TokenEntry,
  VideoGeneration,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
};
export type { TokenEntryKind } from './token-entry.entity';
export const ENTITIES = [
  Organization,
  OrgLimits,
  ApiKey,
  Agent,
  AgentVersion,
  AgentRun,
  AgentSchedule,
  Conversation,
  KnowledgeBase,
  KnowledgeBatch,
  KnowledgeDocument,
  PylonEvent,
  TokenEntry,
  VideoGeneration,
  WebhookEndpoint,
  WebhookDelivery,
  WebhookAttempt,
];
