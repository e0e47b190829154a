import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Http } from '../support/http';
import { testInfra } from '../support/infra';
import { Stack } from '../support/stack';
import { createTenant, type Tenant } from '../support/tenant';

/** Examples per operation and phase: enough to find the classes of bad input, bounded for CI. */
const MAX_EXAMPLES = Number(process.env.SCHEMATHESIS_MAX_EXAMPLES ?? 25);

interface FuzzRun {
  code: number;
  output: string;
}

/** The source test/ directory, with schemathesis' config and hooks. */
const TEST_DIR = join(__dirname, '..', '..', '..', 'test');
const REPORT_DIR = mkdtempSync(join(tmpdir(), 'pylon-schemathesis-'));

/** Keeps the whole output (every failure with its curl command) and names the file in the assertion. */
function keep(name: string, run: FuzzRun): string {
  const file = join(REPORT_DIR, `${name}.log`);
  writeFileSync(file, run.output);
  return `${summary(run.output)}\nfull output: ${file}`;
}

/**
 * Schemathesis, a fuzzer nobody here wrote, generates valid and invalid requests for every operation of
 * the published OpenAPI document and checks every answer: no 5xx, documented status codes, content types
 * and bodies matching their schemas, invalid input refused, and more (all its checks).
 */
function schemathesis(stack: Stack, token: string, orgId: string | null, operations: string[]): Promise<FuzzRun> {
  const cli = process.env.SCHEMATHESIS;
  if (!cli) throw new Error('schemathesis runs under `npm test`, which installs it (scripts/ensure-schemathesis.sh)');
  const args = [
    '--config-file',
    join(TEST_DIR, 'schemathesis.toml'),
    'run',
    `${stack.url}/integration/openapi.json`,
    '--checks',
    'all',
    '--max-examples',
    String(MAX_EXAMPLES),
    '--seed',
    '20261123',
    '--header',
    `Authorization: Bearer ${token}`,
    // One worker: with the seed, the same requests every run.
    '--workers',
    '1',
    '--request-timeout',
    '30',
    '--no-color',
    ...operations,
  ];
  return new Promise((resolve, reject) => {
    // Its working directory is the report directory: schemathesis keeps a cache (.schemathesis/) where it runs.
    const env = {
      ...process.env,
      SCHEMATHESIS_TELEMETRY: 'false',
      // test/schemathesis_hooks.py: a drawn org_id that is a well-formed id becomes the key's organisation.
      SCHEMATHESIS_HOOKS: 'schemathesis_hooks',
      PYTHONPATH: TEST_DIR,
      ...(orgId ? { PYLON_FUZZ_ORG_ID: orgId } : {}),
    };
    const child = spawn(cli, args, { cwd: REPORT_DIR, stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** The lines of schemathesis' summary (operations, test cases, failures), for the log of the run. */
function summary(output: string): string {
  const start = output.lastIndexOf('SUMMARY');
  return start >= 0 ? output.slice(start) : output.slice(-4000);
}

describe('schemathesis fuzzing of the OpenAPI document', () => {
  let stack: Stack;
  let tenant: Tenant;

  before(async () => {
    stack = await Stack.start();
    tenant = await createTenant(new Http(stack.url));
  });
  after(async () => stack?.stop());

  it('the organisation API (every /api and /v1 operation, with a key that has every scope): 0 failures', async () => {
    const run = await schemathesis(stack, tenant.key, tenant.orgId, ['--exclude-path-regex', '^/admin/']);
    const report = keep('organisation-api', run);
    console.log(report);
    assert.equal(run.code, 0, report);
  });

  it('the admin API (with the admin token): 0 failures', async () => {
    const run = await schemathesis(stack, testInfra().adminToken, null, ['--include-path-regex', '^/admin/']);
    const report = keep('admin-api', run);
    console.log(report);
    assert.equal(run.code, 0, report);
  });
});
