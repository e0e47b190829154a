import type { OpenAPIObject } from '@nestjs/swagger';
import { operationsOf } from './enforced-rules';

/**
 * Which operations use what a create returns: OpenAPI links, so that a client generator or a stateful
 * fuzzer (schemathesis' stateful phase) follows a new resource's id into the operations on it.
 * From an operation's success response, each named field fills a path parameter of the linked ones.
 */
const LINKS: Array<{ from: string; field: string; parameter: string; to: string[] }> = [
  { from: 'createAgentRun', field: 'run_id', parameter: 'runId', to: ['getAgentRun', 'cancelAgentRun', 'listAgentRunEvents'] },
  {
    from: 'createAgentSchedule',
    field: 'schedule_id',
    parameter: 'scheduleId',
    to: ['getAgentSchedule', 'updateAgentSchedule', 'triggerAgentSchedule', 'deleteAgentSchedule', 'listAgentScheduleRuns'],
  },
  { from: 'createAgent', field: 'agent_id', parameter: 'agent_id', to: ['getAgent', 'createAgentVersion', 'listAgentVersions'] },
  { from: 'createAgentVersion', field: 'agent_version_id', parameter: 'agent_version_id', to: ['getAgentVersion'] },
  {
    from: 'createKnowledgeDocument',
    field: 'doc_id',
    parameter: 'doc_id',
    to: ['getKnowledgeDocument', 'replaceKnowledgeDocument', 'deleteKnowledgeDocument'],
  },
  {
    from: 'createKnowledgeBase',
    field: 'knowledge_base_id',
    parameter: 'knowledge_base_id',
    to: ['getKnowledgeBase', 'updateKnowledgeBase', 'deleteKnowledgeBase'],
  },
  {
    from: 'createWebhookEndpoint',
    field: 'endpoint_id',
    parameter: 'endpoint_id',
    to: [
      'getWebhookEndpoint',
      'updateWebhookEndpoint',
      'deleteWebhookEndpoint',
      'rotateWebhookSecret',
      'sendWebhookTestEvent',
      'listWebhookDeliveries',
    ],
  },
  { from: 'sendWebhookTestEvent', field: 'delivery_id', parameter: 'delivery_id', to: ['getWebhookDelivery', 'retryWebhookDelivery'] },
  { from: 'sendWebhookTestEvent', field: 'endpoint_id', parameter: 'endpoint_id', to: ['getWebhookDelivery', 'retryWebhookDelivery'] },
  { from: 'createVideoGeneration', field: 'id', parameter: 'taskId', to: ['cancelVideoGeneration', 'extendVideoGeneration'] },
  { from: 'createOwnApiKey', field: 'key_id', parameter: 'key_id', to: ['rollOwnApiKey', 'revokeOwnApiKey'] },
  {
    from: 'createOrg',
    field: 'org_id',
    parameter: 'org_id',
    to: ['createApiKey', 'listApiKeys', 'getOrgLimits', 'updateOrgLimits', 'getOrgKnowledgeIndex', 'grantTokens', 'disableOrgWebhookEndpoints'],
  },
  { from: 'createApiKey', field: 'key_id', parameter: 'key_id', to: ['revokeApiKey', 'updateApiKey', 'rollApiKey'] },
];

export function documentLinks(document: OpenAPIObject): void {
  const operations = new Map(operationsOf(document).map((operation) => [operation.operationId, operation]));
  for (const { from, field, parameter, to } of LINKS) {
    const source = operations.get(from);
    const success = Object.entries(source?.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1];
    if (!success) throw new Error(`OpenAPI link from ${from}: no such operation with a success response`);
    for (const target of to) {
      if (!operations.has(target)) throw new Error(`OpenAPI link from ${from} to ${target}: no such operation`);
      const link = ((success.links ??= {})[target] ??= { operationId: target, parameters: {} });
      link.parameters[parameter] = `$response.body#/${field}`;
    }
  }
}
