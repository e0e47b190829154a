import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as agentRuns from '@pylon/agent-runs';
import * as agents from '@pylon/agents';
import * as apiKeys from '@pylon/api-keys';
import * as knowledge from '@pylon/knowledge';
import * as ledger from '@pylon/ledger';
import * as limits from '@pylon/limits';
import * as organizations from '@pylon/organizations';
import * as usage from '@pylon/usage';
import * as video from '@pylon/video';
import * as webhooks from '@pylon/webhooks';

/** Every feature that owns repositories. */
const FEATURES = { agentRuns, agents, apiKeys, knowledge, ledger, limits, organizations, usage, video, webhooks };

/**
 * Every method of a repository takes the organisation's id (a parameter named `orgId`), so a caller
 * cannot reach another organisation's rows without the signature showing it. The exceptions are
 * listed here, each with why it is not scoped by a parameter; a new method without `orgId` fails this
 * test until it takes one or is added here with its reason. (Checked by reflection over the compiled
 * classes: parameter names survive compilation.)
 */
const NOT_SCOPED_BY_PARAMETER: Record<string, string> = {
  // The organisation is in the row being created.
  'AgentRunRepository.insertQueued': 'a new row: its org_id is in the row given',
  'ApiKeyRepository.insert': 'a new row: its org_id is in the row given',
  'KnowledgeDocumentRepository.insertProcessing': 'a new row: its org_id is in the row given',
  'VideoGenerationRepository.insertPending': 'a new row: its org_id is in the row given',
  'WebhookEndpointRepository.createEndpoint': 'a new row: its org_id is in the row given',
  'WebhookDeliveryRepository.recordAttempts':
    'attempts of several organisations in one statement: each row carries its org_id, and one whose delivery is not of that organisation is not recorded',
  // Private helpers of scoped methods.
  'LedgerRepository.insertEntry': 'private: writes the entry its scoped callers made, with its org_id',
  // Before an organisation is known, or across all of them, for the operator.
  'ApiKeyRepository.findByLookupId': 'authentication: the organisation is not known until the key is found',
  'ApiKeyRepository.orgOfKey': "the operator's routes name a key by its id alone; every change after it is scoped",
  'KeyRateBucketRepository.take': "a key's request bucket, keyed by the key (the key is the tenant's credential, not its data)",
  'OrganizationRepository.create': 'the tenants themselves (admin API)',
  'OrganizationRepository.list': 'the tenants themselves (admin API)',
  'RunEventRepository.deleteOlderThan': 'retention: one sweep over every organisation',
  'UsageRepository.deleteKeyRequestsBefore': 'retention: one sweep over every organisation',
  'UsageRepository.addKeyRequests':
    "the request counts of several organisations' keys in one statement, as one API process counted them: each row carries its org_id",
  // Facts about the database, not tenant data.
  'KnowledgeChunkRepository.vectorExtensionVersion': 'the database, not tenant data',
  'KnowledgeChunkRepository.embeddingColumnDimensions': 'the database, not tenant data',
};

function parameterNames(fn: (...args: never[]) => unknown): string[] {
  const source = fn.toString();
  const open = source.indexOf('(');
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === '(') depth++;
    if (source[i] === ')' && --depth === 0)
      return [...source.slice(open + 1, i).matchAll(/(?:^|,)\s*(?:\.\.\.)?([A-Za-z_$][\w$]*)/g)].map((match) => match[1]!);
  }
  return [];
}

function repositoryMethods(): Array<{ name: string; parameters: string[] }> {
  const repositories = Object.values(FEATURES)
    .flatMap((feature) => Object.entries(feature))
    .filter(([name, value]) => name.endsWith('Repository') && typeof value === 'function') as Array<[string, { prototype: object }]>;
  assert.ok(repositories.length >= 10, `the repositories are exported from their features (found ${repositories.length})`);
  return repositories.flatMap(([className, repository]) =>
    Object.getOwnPropertyNames(repository.prototype)
      .filter((method) => method !== 'constructor' && typeof Object.getOwnPropertyDescriptor(repository.prototype, method)?.value === 'function')
      .map((method) => ({
        name: `${className}.${method}`,
        parameters: parameterNames(Object.getOwnPropertyDescriptor(repository.prototype, method)!.value as (...args: never[]) => unknown),
      })),
  );
}

describe('tenant scope of the repositories', () => {
  it('every repository method takes orgId, or is listed with its reason', () => {
    const unscoped = repositoryMethods()
      .filter(({ name, parameters }) => !parameters.includes('orgId') && !(name in NOT_SCOPED_BY_PARAMETER))
      .map(({ name, parameters }) => `${name}(${parameters.join(', ')})`);
    assert.deepEqual(unscoped, [], 'methods that reach tenant rows without an orgId parameter');
  });

  it('lists no exception that no longer exists or has since been scoped', () => {
    const methods = new Map(repositoryMethods().map(({ name, parameters }) => [name, parameters]));
    const stale = Object.keys(NOT_SCOPED_BY_PARAMETER).filter((name) => !methods.has(name) || methods.get(name)!.includes('orgId'));
    assert.deepEqual(stale, []);
  });

  it('reads parameter names from compiled methods', () => {
    class Probe {
      scoped(orgId: string, id: string): unknown {
        return [orgId, id];
      }
      unscoped(id: string, options = { orgId: 'x' }): unknown {
        return [id, options];
      }
    }
    assert.deepEqual(parameterNames(Probe.prototype.scoped as never), ['orgId', 'id']);
    assert.deepEqual(parameterNames(Probe.prototype.unscoped as never), ['id', 'options']);
  });
});
