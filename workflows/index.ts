/** Every workflow the worker hosts. Workflow code imports only @temporalio/workflow and @pylon/contracts. */
export { agentRunWorkflow } from './agent-run.workflow';
export { knowledgeIngestWorkflow } from './knowledge-ingest.workflow';
export { knowledgeBatchWorkflow } from './knowledge-batch.workflow';
export { knowledgeVectorIndexWorkflow } from './knowledge-vector-index.workflow';
export { videoGenerationWorkflow } from './video-generation.workflow';
export { webhookWorkflow } from './webhook.workflow';
export { runEventsRetentionWorkflow } from './run-events-retention.workflow';
export { agentScheduleFiringWorkflow } from './agent-schedule-firing.workflow';
export { conversationWorkflow } from './conversation.workflow';
