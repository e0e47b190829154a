/** Names shared by the API (which starts workflows), the worker (which hosts them) and the workflows. */

/**
 * Each kind of work has a task queue of its own, with its own worker slots, so a backlog of one kind
 * (say, webhook retries) can never take the slots another kind (agent runs) needs.
 */
export const WORK_KINDS = ['agent-runs', 'knowledge', 'video', 'webhooks'] as const;
export type WorkKind = (typeof WORK_KINDS)[number];

export const DEFAULT_TASK_QUEUE_PREFIX = 'pylon';

/**
 * A kind's work goes to its task queue. Agent runs also have an express lane, a task queue of their own
 * for the runs of organisations with nothing else queued (see PylonConfig.agentRunsExpressSlots);
 * knowledge has an extraction lane, where files are read, one activity slot per extraction thread, so
 * that files wait in Temporal (dispatched by organisation, the fairness key) rather than in a worker.
 */
export type Lane = 'standard' | 'express' | 'extraction';

/** A kind's task queue: `<prefix>.<kind>`, e.g. `pylon.agent-runs`; a lane's, `pylon.agent-runs-express`. */
export function taskQueueName(prefix: string, kind: WorkKind, lane: Lane = 'standard'): string {
  return lane === 'standard' ? `${prefix}.${kind}` : `${prefix}.${kind}-${lane}`;
}

/** A lane of the workflow's own kind, from the queue the workflow runs on (its standard one). */
export function laneTaskQueue(ownTaskQueue: string, lane: Exclude<Lane, 'standard'>): string {
  return `${ownTaskQueue}-${lane}`;
}

/** Another kind's task queue, from the queue a workflow runs on (workflows only know their own). */
export function siblingTaskQueue(ownTaskQueue: string, kind: WorkKind): string {
  const separator = ownTaskQueue.lastIndexOf('.');
  return taskQueueName(separator < 0 ? ownTaskQueue : ownTaskQueue.slice(0, separator), kind);
}

export const WORKFLOW_TYPES = {
  agentRun: 'agentRunWorkflow',
  knowledgeIngest: 'knowledgeIngestWorkflow',
  knowledgeBatch: 'knowledgeBatchWorkflow',
  knowledgeVectorIndex: 'knowledgeVectorIndexWorkflow',
  videoGeneration: 'videoGenerationWorkflow',
  webhook: 'webhookWorkflow',
  runEventsRetention: 'runEventsRetentionWorkflow',
  agentScheduleFiring: 'agentScheduleFiringWorkflow',
  conversation: 'conversationWorkflow',
} as const;
export type WorkflowType = (typeof WORKFLOW_TYPES)[keyof typeof WORKFLOW_TYPES];

/** The kind of work, hence the task queue, of every workflow type. */
export const WORKFLOW_KINDS: Record<WorkflowType, WorkKind> = {
  agentRunWorkflow: 'agent-runs',
  knowledgeIngestWorkflow: 'knowledge',
  knowledgeBatchWorkflow: 'knowledge',
  knowledgeVectorIndexWorkflow: 'knowledge',
  videoGenerationWorkflow: 'video',
  webhookWorkflow: 'webhooks',
  runEventsRetentionWorkflow: 'agent-runs',
  agentScheduleFiringWorkflow: 'agent-runs',
  conversationWorkflow: 'agent-runs',
};

/** The Temporal schedule that runs the run-event retention workflow every hour, one per deployment (queue prefix). */
export function runEventsRetentionScheduleId(taskQueuePrefix: string): string {
  return `${taskQueuePrefix}.run-events-retention`;
}

export function agentRunWorkflowId(runId: string): string {
  return `agent-run:${runId}`;
}

/** One per conversation: it takes the conversation's turns and runs them in order. */
export function conversationWorkflowId(conversationId: string): string {
  return `conversation:${conversationId}`;
}

/** One workflow per revision of a document: `kb-ingest:<doc_id>` for revision 1 (as before revisions), `kb-ingest:<doc_id>:r<n>` after. */
export function knowledgeIngestWorkflowId(docId: string, revision = 1): string {
  return revision === 1 ? `kb-ingest:${docId}` : `kb-ingest:${docId}:r${revision}`;
}

export function knowledgeBatchWorkflowId(batchId: string): string {
  return `kb-batch:${batchId}`;
}

/** One per organisation: its vector index is built by one workflow at a time. */
export function knowledgeVectorIndexWorkflowId(orgId: string): string {
  return `kb-vector-index:${orgId}`;
}

export function videoWorkflowId(generationId: string): string {
  return `video:${generationId}`;
}

/** One webhook workflow per event: its retries, its test delivery, its replays. */
export function webhookWorkflowId(eventId: string): string {
  return `webhook:${eventId}`;
}

/** What the Temporal UI shows for an event's webhook workflow. */
export function webhookWorkflowSummary(eventId: string): string {
  return `Webhook deliveries of event ${eventId}`;
}

/** Custom search attributes an operator filters on in the Temporal UI, e.g. `OrgId = "…"`. */
export const SEARCH_ATTRIBUTES = {
  orgId: 'OrgId',
  resourceId: 'ResourceId',
} as const;
