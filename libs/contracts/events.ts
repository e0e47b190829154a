/** Event types, recorded durably when work finishes and delivered by webhooks. */
export const EVENT_TYPES = {
  agentRunSucceeded: 'agent_run.succeeded',
  agentRunFailed: 'agent_run.failed',
  /** A run waits for tool outputs or approvals: GET /api/v1/agent-runs/{run_id}/required-action. */
  agentRunRequiresAction: 'agent_run.requires_action',
  videoGenerationCompleted: 'video_generation.completed',
  videoGenerationFailed: 'video_generation.failed',
  knowledgeDocumentReady: 'knowledge_document.ready',
  knowledgeDocumentFailed: 'knowledge_document.failed',
} as const;

export type EventType = (typeof EVENT_TYPES)[keyof typeof EVENT_TYPES];
