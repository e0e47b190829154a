/** Names shared by the API (which starts workflows), the worker (which hosts them) and the workflows. */
export const DEFAULT_TASK_QUEUE = 'pylon';

export const WORKFLOW_TYPES = {
  agentRun: 'agentRunWorkflow',
  knowledgeIngest: 'knowledgeIngestWorkflow',
  videoGeneration: 'videoGenerationWorkflow',
  webhookFanout: 'webhookFanoutWorkflow',
  webhookDelivery: 'webhookDeliveryWorkflow',
} as const;

export function agentRunWorkflowId(runId: string): string {
  return `agent-run:${runId}`;
}

export function knowledgeIngestWorkflowId(docId: string): string {
  return `kb-ingest:${docId}`;
}

export function videoWorkflowId(generationId: string): string {
  return `video:${generationId}`;
}

export function webhookFanoutWorkflowId(eventId: string): string {
  return `webhook-fanout:${eventId}`;
}

export function webhookDeliveryWorkflowId(deliveryId: string): string {
  return `webhook:${deliveryId}`;
}

/** Custom search attributes an operator filters on in the Temporal UI, e.g. `OrgId = "…"`. */
export const SEARCH_ATTRIBUTES = {
  orgId: 'OrgId',
  resourceId: 'ResourceId',
} as const;
