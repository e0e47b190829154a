/** Every workflow the worker hosts. Workflow code imports only @temporalio/workflow and @pylon/contracts. */
export { agentRunWorkflow } from './agent-run.workflow';
export { knowledgeIngestWorkflow } from './knowledge-ingest.workflow';
export { videoGenerationWorkflow } from './video-generation.workflow';
export { webhookFanoutWorkflow } from './webhook-fanout.workflow';
export { webhookDeliveryWorkflow } from './webhook-delivery.workflow';
