import assert from 'node:assert/strict';
import type { Scope } from '@pylon/contracts';
import { testInfra } from './infra';
import type { Http } from './http';

export interface Tenant {
  orgId: string;
  /** A key with every scope (`*`). */
  key: string;
  agentId: string;
  versionId: string;
}

export async function createOrg(http: Http, name = 'Test org'): Promise<string> {
  const response = await http.post('/admin/v1/orgs', { token: testInfra().adminToken, body: { name } });
  assert.equal(response.status, 201, response.text);
  return response.body.org_id as string;
}

export async function createKey(http: Http, orgId: string, scopes: Scope[], extra: Record<string, unknown> = {}): Promise<string> {
  const response = await http.post(`/admin/v1/orgs/${orgId}/api-keys`, {
    token: testInfra().adminToken,
    body: { name: `key ${scopes.join(',')}`, scopes, ...extra },
  });
  assert.equal(response.status, 201, `${response.text} ${response.headers.get('error-detail')}`);
  return response.body.api_key as string;
}

export async function createVersion(http: Http, key: string, agentId: string, fields: Record<string, unknown>): Promise<string> {
  const response = await http.post(`/api/v1/agents/${agentId}/versions`, {
    token: key,
    body: { instructions: 'Answer briefly.', ...fields },
  });
  assert.equal(response.status, 201, response.text);
  return response.body.agent_version_id as string;
}

/** A fresh organisation with a `*` key, an agent and a version on the given model. */
export async function createTenant(http: Http, model = 'local/extractive', versionFields: Record<string, unknown> = {}): Promise<Tenant> {
  const orgId = await createOrg(http);
  const key = await createKey(http, orgId, ['*']);
  const agent = await http.post('/api/v1/agents', { token: key, body: { org_id: orgId, name: 'Test agent' } });
  assert.equal(agent.status, 201, agent.text);
  const versionId = await createVersion(http, key, agent.body.agent_id, { model, ...versionFields });
  return { orgId, key, agentId: agent.body.agent_id, versionId };
}

/** Polls a run until it reaches a final status (or the timeout), returning every status seen. */
export async function waitForRun(http: Http, key: string, runId: string, timeoutMs = 60_000): Promise<{ run: any; seen: string[] }> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await http.get(`/api/v1/agent-runs/${runId}`, { token: key });
    assert.equal(response.status, 200, response.text);
    if (seen[seen.length - 1] !== response.body.status) seen.push(response.body.status);
    if (response.body.status === 'succeeded' || response.body.status === 'failed') return { run: response.body, seen };
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${response.body.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Adds a document and waits until its ingestion finished (ready or failed). */
export async function ingestDocument(
  http: Http,
  tenant: Pick<Tenant, 'orgId' | 'key'>,
  fields: { title: string; content: string; metadata?: Record<string, unknown>; knowledge_base_id?: string },
  timeoutMs = 60_000,
): Promise<any> {
  const created = await http.post('/api/v1/knowledge/documents', { token: tenant.key, body: { org_id: tenant.orgId, ...fields } });
  assert.equal(created.status, 202, created.text);
  return waitForDocument(http, tenant.key, created.body.doc_id, timeoutMs);
}

export async function waitForDocument(http: Http, key: string, docId: string, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await http.get(`/api/v1/knowledge/documents/${docId}`, { token: key });
    assert.equal(response.status, 200, response.text);
    if (response.body.status !== 'processing') return response.body;
    if (Date.now() > deadline) throw new Error(`document ${docId} still processing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
