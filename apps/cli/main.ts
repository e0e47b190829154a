import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ADMIN_TOKEN_FILE, loadConfig, requireSupportedNode } from '@pylon/config';

const USAGE = `Pylon operator CLI — talks to a running Pylon's admin API.

  npm run pylon -- org create --name <name>
  npm run pylon -- org list
  npm run pylon -- key create --org <org_id> --scopes runs:create,runs:read [--name <name>] [--expires-at <ISO time>]
  npm run pylon -- key list --org <org_id>
  npm run pylon -- key revoke <key_id>
  npm run pylon -- key roll <key_id> [--grace-seconds <n>]
  npm run pylon -- webhooks disable --org <org_id> [--reason <text>]
  npm run pylon -- key rate-limit <key_id> [--per-second <n|default>] [--burst <n|default>]
  npm run pylon -- limits show --org <org_id>
  npm run pylon -- limits set --org <org_id> [--webhook-endpoints <n|default>] [--test-events-per-minute <n|default>]
                                             [--inflight-deliveries-per-endpoint <n|default>] [--dispatch-weight <x|default>]
                                             [--queued-runs <n|default>] [--queued-documents <n|default>]
  npm run pylon -- kb index --org <org_id>
  npm run pylon -- secrets reseal [--org <org_id>]   after rotating SECRETS_KEY: seal stored secrets (MCP headers, model-provider keys) under the new key

"default" puts a limit back to the configured default.

The server is PYLON_URL (default http://127.0.0.1:$PORT), the admin token ADMIN_TOKEN
(default: the one the embedded mode saved under DATA_DIR).`;

interface Connection {
  url: string;
  token: string;
}

function connection(): Connection {
  const config = loadConfig();
  const saved = join(config.dataDir, ADMIN_TOKEN_FILE);
  const token = config.adminToken ?? (existsSync(saved) ? readFileSync(saved, 'utf8').trim() : undefined);
  if (!token) throw new Error(`no admin token: set ADMIN_TOKEN (or start the embedded mode, which saves one in ${saved})`);
  return { url: process.env.PYLON_URL ?? `http://127.0.0.1:${config.port}`, token };
}

async function call(method: string, path: string, body?: unknown): Promise<any> {
  const { url, token } = connection();
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  }).catch((error: Error) => {
    throw new Error(`cannot reach Pylon at ${url} (${error.message}); is it running?`);
  });
  const text = await response.text();
  if (!response.ok) {
    const detail = response.headers.get('error-detail');
    throw new Error(`${method} ${path} → ${response.status} ${text}${detail ? ` (${detail})` : ''}`);
  }
  return text ? JSON.parse(text) : undefined;
}

/** A limit flag: a positive number (the server says which must be whole), "default" (null: back to the configured default), or absent. */
function limitValue(value: string | undefined, flag: string): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'default') return null;
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0) throw new Error(`--${flag} must be a positive number or "default", not "${value}"`);
  return Number(value);
}

/** The body of a PATCH from limit flags: only the given ones, and at least one. */
function limitChanges(values: Record<string, string | boolean | undefined>, fields: Record<string, string>): Record<string, number | null> {
  const changes: Record<string, number | null> = {};
  for (const [flag, field] of Object.entries(fields)) {
    const value = limitValue(values[flag] as string | undefined, flag);
    if (value !== undefined) changes[field] = value;
  }
  if (Object.keys(changes).length === 0)
    throw new Error(
      `give at least one of ${Object.keys(fields)
        .map((flag) => `--${flag}`)
        .join(', ')}\n\n${USAGE}`,
    );
  return changes;
}

function printOrgLimits(limits: any): void {
  console.log(`Limits of organisation ${limits.org_id}:`);
  for (const name of [
    'webhook_endpoints',
    'test_events_per_minute',
    'inflight_deliveries_per_endpoint',
    'dispatch_weight',
    'queued_runs',
    'queued_documents',
  ]) {
    console.log(`  ${name.padEnd(34)} ${String(limits[name]).padStart(8)}  ${limits.overrides[name] === null ? '(default)' : '(override)'}`);
  }
}

function printKnowledgeIndex(state: any): void {
  console.log(`Knowledge of organisation ${state.org_id}: ${state.chunks} chunks (searched exactly up to ${state.exact_search_max_chunks})`);
  console.log(`  searched by   ${state.searched_by === 'own_index' ? 'its own vector index' : 'exact search'}`);
  const index = state.index;
  if (!index) return console.log('  own index     none');
  const took = index.build_ms === null ? '' : `, built in ${(index.build_ms / 1000).toFixed(1)} s`;
  console.log(`  own index     ${index.name}: ${index.status} (from ${index.chunks_at_start} chunks${took}; ${index.updated_at})`);
  if (index.error) console.log(`  last error    ${index.error}`);
}

const describeRate = (key: any) =>
  key.rate_limit_per_second === null && key.rate_limit_burst === null
    ? 'default rate'
    : `${key.rate_limit_per_second ?? 'default'}/s burst ${key.rate_limit_burst ?? 'default'}`;

function required(value: string | undefined, flag: string): string {
  if (!value) throw new Error(`missing --${flag}\n\n${USAGE}`);
  return value;
}

async function main(argv: string[]): Promise<void> {
  requireSupportedNode();
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      org: { type: 'string' },
      scopes: { type: 'string' },
      'expires-at': { type: 'string' },
      'grace-seconds': { type: 'string' },
      reason: { type: 'string' },
      'per-second': { type: 'string' },
      burst: { type: 'string' },
      'webhook-endpoints': { type: 'string' },
      'test-events-per-minute': { type: 'string' },
      'inflight-deliveries-per-endpoint': { type: 'string' },
      'dispatch-weight': { type: 'string' },
      'queued-runs': { type: 'string' },
      'queued-documents': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [resource, action, id] = positionals;
  const command = `${resource ?? ''} ${action ?? ''}`.trim();
  if (values.help || !resource) return console.log(USAGE);

  switch (command) {
    case 'org create': {
      const org = await call('POST', '/admin/v1/orgs', { name: required(values.name, 'name') });
      return console.log(`Created organisation ${org.name}\n  org_id: ${org.org_id}`);
    }
    case 'org list': {
      const page = await call('GET', '/admin/v1/orgs?limit=100');
      for (const org of page.data) console.log(`${org.org_id}  ${org.created_at}  ${org.name}`);
      return;
    }
    case 'key create': {
      const key = await call('POST', `/admin/v1/orgs/${required(values.org, 'org')}/api-keys`, {
        name: values.name ?? 'cli',
        scopes: required(values.scopes, 'scopes')
          .split(',')
          .map((scope) => scope.trim())
          .filter(Boolean),
        ...(values['expires-at'] ? { expires_at: values['expires-at'] } : {}),
      });
      console.log(`Created API key ${key.key_id} with scopes ${key.scopes.join(', ')}`);
      console.log(`\n  ${key.api_key}\n\nThis is the only time the key is shown. Store it now.`);
      return;
    }
    case 'key list': {
      const page = await call('GET', `/admin/v1/orgs/${required(values.org, 'org')}/api-keys?limit=100`);
      for (const key of page.data) {
        const state = key.revoked_at ? 'revoked' : key.expires_at && new Date(key.expires_at) < new Date() ? 'expired' : 'active';
        console.log(
          `${key.key_id}  ${key.hint}  ${state}  [${key.scopes.join(',')}]  ${describeRate(key)}  last used ${key.last_used_at ?? 'never'}  ${key.name}`,
        );
      }
      return;
    }
    case 'key revoke': {
      const key = await call('DELETE', `/admin/v1/api-keys/${required(id, '<key_id>')}`);
      return console.log(`Revoked ${key.key_id} at ${key.revoked_at}`);
    }
    case 'key roll': {
      const grace = values['grace-seconds'];
      const key = await call('POST', `/admin/v1/api-keys/${required(id, '<key_id>')}/roll`, grace ? { grace_seconds: Number(grace) } : {});
      console.log(`Rolled ${key.key_id}; the previous secret works until ${key.previous_secret_expires_at}`);
      console.log(`\n  ${key.api_key}\n\nThis is the only time the new key is shown. Store it now.`);
      return;
    }
    case 'webhooks disable': {
      const org = required(values.org, 'org');
      const result = await call('POST', `/admin/v1/orgs/${org}/webhook-endpoints/disable`, values.reason ? { reason: values.reason } : {});
      return console.log(`Disabled ${result.disabled} webhook endpoint${result.disabled === 1 ? '' : 's'} of ${org}; deliveries to them stop.`);
    }
    case 'key rate-limit': {
      const changes = limitChanges(values, { 'per-second': 'rate_limit_per_second', burst: 'rate_limit_burst' });
      const key = await call('PATCH', `/admin/v1/api-keys/${required(id, '<key_id>')}`, changes);
      return console.log(`Key ${key.key_id}: ${describeRate(key)}`);
    }
    case 'secrets reseal': {
      const orgs: string[] = values.org ? [values.org] : [];
      for (let cursor: string | null = null, first = true; !values.org && (first || cursor); first = false) {
        const page = await call('GET', `/admin/v1/orgs?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        orgs.push(...page.data.map((org: { org_id: string }) => org.org_id));
        cursor = page.next_cursor;
      }
      let resealed = 0;
      let credentials = 0;
      for (const org of orgs) {
        const outcome = await call('POST', `/admin/v1/orgs/${org}/secrets/reseal`);
        resealed += outcome.resealed_versions;
        credentials += outcome.resealed_model_credentials;
      }
      const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
      return console.log(
        `Resealed the secrets of ${plural(resealed, 'agent version')} and ${plural(credentials, 'model-provider key')} in ${plural(orgs.length, 'organisation')} under SECRETS_KEY; once every API and worker runs with it, the previous key can leave SECRETS_PREVIOUS_KEYS.`,
      );
    }
    case 'kb index':
      return printKnowledgeIndex(await call('GET', `/admin/v1/orgs/${required(values.org, 'org')}/knowledge-index`));
    case 'limits show':
      return printOrgLimits(await call('GET', `/admin/v1/orgs/${required(values.org, 'org')}/limits`));
    case 'limits set': {
      const changes = limitChanges(values, {
        'webhook-endpoints': 'webhook_endpoints',
        'test-events-per-minute': 'test_events_per_minute',
        'inflight-deliveries-per-endpoint': 'inflight_deliveries_per_endpoint',
        'dispatch-weight': 'dispatch_weight',
        'queued-runs': 'queued_runs',
        'queued-documents': 'queued_documents',
      });
      return printOrgLimits(await call('PATCH', `/admin/v1/orgs/${required(values.org, 'org')}/limits`, changes));
    }
    default:
      throw new Error(`unknown command "${command}"\n\n${USAGE}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
