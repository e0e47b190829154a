import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_FILE } from '@pylon/config';

/** Enough for ten video generations. */
const DEMO_TOKENS = 5_000_000;

export interface DemoTenant {
  orgId: string;
  agentId: string;
  agentVersionId: string;
  keyId: string;
  /** Only on the start that created it: the key is shown once. */
  apiKey?: string;
}

async function call(baseUrl: string, token: string, method: string, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${await response.text()}`);
  return response.json();
}

/** On first start: a demo organisation with tokens, a `*` API key and an agent version on the offline provider. */
export async function ensureDemoTenant(baseUrl: string, adminToken: string, dataDir: string): Promise<DemoTenant> {
  const file = join(dataDir, DEMO_FILE);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as DemoTenant;

  const org = await call(baseUrl, adminToken, 'POST', '/admin/v1/orgs', { name: 'Demo' });
  const key = await call(baseUrl, adminToken, 'POST', `/admin/v1/orgs/${org.org_id}/api-keys`, { name: 'demo', scopes: ['*'] });
  const agent = await call(baseUrl, key.api_key, 'POST', '/api/v1/agents', { org_id: org.org_id, name: 'Demo agent' });
  const version = await call(baseUrl, key.api_key, 'POST', `/api/v1/agents/${agent.agent_id}/versions`, {
    model: 'local/extractive',
    instructions: 'Answer from the organisation knowledge base.',
    tools: [{ type: 'knowledge_search', match_count: 6 }],
  });
  await call(baseUrl, adminToken, 'POST', `/admin/v1/orgs/${org.org_id}/token-grants`, { amount: DEMO_TOKENS, reason: 'demo grant' });
  const demo: DemoTenant = { orgId: org.org_id, agentId: agent.agent_id, agentVersionId: version.agent_version_id, keyId: key.key_id };
  writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  return { ...demo, apiKey: key.api_key };
}
