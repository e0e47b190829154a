import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCommand } from '../support/run-command';
import { Http } from '../support/http';
import { testInfra } from '../support/infra';
import { grantTokens } from '../support/ledger';
import { Stack } from '../support/stack';
import { FakeOpenAi } from '../support/fake-openai';
import { createTenant, createVersion, type Tenant } from '../support/tenant';
import { WebhookReceiver } from '../support/webhook-receiver';
import { docBlock } from '../support/doc-blocks';

/** The doc whose examples these tests run as they stand. */
const SDK_DOC = 'docs/sdk-python.md';

/** The repository root, seen from dist-test/test/e2e/. */
const ROOT = join(__dirname, '..', '..', '..');
const PACKAGE = join(ROOT, 'packages', 'python');
const MODELS = join(PACKAGE, 'src', 'pylon_sdk', 'models.py');

/**
 * pylon_sdk as a user gets it: `pip install ./packages/python` into a fresh virtualenv, then a script of
 * checks against the running API and worker (packages/python/tests/live_check.py), and `mypy --strict` on a
 * user's sample.
 */
describe('pylon_sdk (Python), installed with pip', () => {
  let work: string;
  let python: string;
  let tools: string;
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;
  let receiver: WebhookReceiver;
  let fake: FakeOpenAi;
  let slowVersionId: string;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'pylon-python-sdk-'));
    tools = execFileSync('bash', [join(ROOT, 'scripts', 'ensure-python-sdk-tools.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }).trim();
    execFileSync('python3', ['-m', 'venv', join(work, 'venv')]);
    python = join(work, 'venv', 'bin', 'python');
    execFileSync(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', PACKAGE], { stdio: ['ignore', 'ignore', 'inherit'] });
    receiver = await WebhookReceiver.start();
    fake = await FakeOpenAi.start();
    stack = await Stack.start({
      env: {
        OPENAI_API_KEY: 'sk-test-fake',
        OPENAI_BASE_URL: fake.baseUrl,
        SECRETS_KEY: randomBytes(32).toString('base64'),
        WEBHOOK_ALLOWED_PRIVATE_TARGETS: 'loopback',
        VIDEO_PROVIDER: 'local',
        LOCAL_RENDER_SECONDS: '1',
      },
    });
    http = new Http(stack.url);
    tenant = await createTenant(http);
    slowVersionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'openai/gpt-4o-mini' });
    fake.defaultReply = { content: 'after a pause', delayMs: 2_000 };
    await grantTokens(http, tenant.orgId, 1_000_000);
  });
  after(async () => {
    await stack?.stop();
    await receiver?.stop();
    await fake?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('its models are generated from the live OpenAPI document (PY_SDK_UPDATE_MODELS=1 regenerates them)', async () => {
    const document = join(work, 'openapi.json');
    writeFileSync(document, await (await fetch(`${stack.url}/integration/openapi.json`)).text());
    const generated = join(work, 'models.py');
    execFileSync(join(tools, 'bin', 'datamodel-codegen'), [
      '--input',
      document,
      '--input-file-type',
      'openapi',
      '--output',
      generated,
      '--output-model-type',
      'typing.TypedDict',
      '--target-python-version',
      '3.10',
      '--use-union-operator',
      '--use-standard-collections',
      '--disable-timestamp',
      '--use-schema-description',
    ]);
    if (process.env.PY_SDK_UPDATE_MODELS === '1') writeFileSync(MODELS, readFileSync(generated, 'utf8'));
    assert.equal(
      readFileSync(MODELS, 'utf8'),
      readFileSync(generated, 'utf8'),
      'packages/python/src/pylon_sdk/models.py is stale: run this test with PY_SDK_UPDATE_MODELS=1',
    );
  });

  it('passes its live checks: create, stream and wait, conversations, run_tools and required actions, a stream cut mid-run resumed, async, a 429 storm ridden out once each, pagination, webhook verification, errors, every method, structured output, run usage and model prices', async () => {
    const receivedFile = join(work, 'received.jsonl');
    writeFileSync(receivedFile, '');
    let written = 0;
    const copy = setInterval(() => {
      for (; written < receiver.received.length; written++) {
        const webhook = receiver.received[written]!;
        appendFileSync(receivedFile, `${JSON.stringify({ path: webhook.path, headers: webhook.headers, body: webhook.body })}\n`);
      }
    }, 50);
    try {
      const child = spawn(python, [join(PACKAGE, 'tests', 'live_check.py')], {
        env: {
          ...process.env,
          PYLON_URL: stack.url,
          PYLON_API_KEY: tenant.key,
          PYLON_ADMIN_TOKEN: testInfra().adminToken,
          ORG_ID: tenant.orgId,
          AGENT_VERSION_ID: tenant.versionId,
          SLOW_AGENT_VERSION_ID: slowVersionId,
          RECEIVER_URL: receiver.baseUrl,
          RECEIVED_FILE: receivedFile,
          KNOWLEDGE_PDF: join(ROOT, 'test', 'fixtures', 'knowledge', 'report.pdf'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      for (const line of output.trim().split('\n')) console.log(`# ${line}`);
      assert.equal(code, 0, output);
    } finally {
      clearInterval(copy);
    }
  });

  it("runs docs/sdk-python.md's Python walkthrough as it stands", async () => {
    const script = join(work, 'walkthrough.py');
    writeFileSync(script, docBlock(SDK_DOC, '### The walkthrough', 'python'));
    const ran = await runCommand(python, [script], {
      env: {
        ...process.env,
        PYLON_URL: stack.url,
        PYLON_API_KEY: tenant.key,
        ORG_ID: tenant.orgId,
        AGENT_VERSION_ID: tenant.versionId,
        WEBHOOK_URL: `${receiver.baseUrl}/walkthrough`,
      },
      timeout: 120_000,
    });
    assert.equal(ran.status, 0, ran.stdout + ran.stderr);
    assert.match(ran.stdout, /\d+ succeeded/);
  });

  it("runs docs/sdk-python.md's conversation-with-tools walkthrough in Python as it stands", async () => {
    const toolsVersion = await createVersion(http, tenant.key, tenant.agentId, {
      model: 'local/extractive',
      tools: [
        {
          type: 'function',
          name: 'lookup_order',
          parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
        },
      ],
    });
    const script = join(work, 'conversation.py');
    writeFileSync(script, docBlock(SDK_DOC, '### A conversation with tools', 'python'));
    const ran = await runCommand(python, [script], {
      env: { ...process.env, PYLON_URL: stack.url, PYLON_API_KEY: tenant.key, ORG_ID: tenant.orgId, TOOLS_VERSION_ID: toolsVersion },
      timeout: 120_000,
    });
    assert.equal(ran.status, 0, ran.stdout + ran.stderr);
    assert.match(ran.stdout, /lookup_order returned: \{"order_id": ?"42", ?"status": ?"shipped"\}/);
  });

  /** Runs a docs/sdk-python.md block as a user's script with these variables; answers its stdout. */
  const runDocBlock = async (heading: string, file: string, env: Record<string, string>) => {
    const script = join(work, `${file}.py`);
    writeFileSync(script, docBlock(SDK_DOC, heading, 'python'));
    const ran = await runCommand(python, [script], { env: { ...process.env, PYLON_URL: stack.url, ...env }, timeout: 120_000 });
    assert.equal(ran.status, 0, ran.stdout + ran.stderr);
    return ran.stdout;
  };

  it("runs docs/sdk-python.md's structured-output example in Python as it stands", async () => {
    const owner = await createTenant(http);
    const stdout = await runDocBlock('### Structured outputs', 'structured', {
      PYLON_API_KEY: owner.key,
      ORG_ID: owner.orgId,
      AGENT_ID: owner.agentId,
    });
    assert.match(stdout, /^high 4711$/m);
  });

  it("runs docs/sdk-python.md's run-cost example in Python as it stands", async () => {
    const owner = await createTenant(http);
    await grantTokens(http, owner.orgId, 100_000);
    const stdout = await runDocBlock('### What a run costs', 'costs', {
      PYLON_API_KEY: owner.key,
      PYLON_ADMIN_TOKEN: testInfra().adminToken,
      ORG_ID: owner.orgId,
      AGENT_VERSION_ID: owner.versionId,
    });
    const total = Number(/^total (\d+)$/m.exec(stdout)?.[1]);
    assert.ok(total > 0, stdout);
    assert.match(stdout, /^1 local\/extractive \d+ \d+ tokenizer \d+ True$/m);
    assert.match(stdout, new RegExp(`'run_cost_tokens': ${total}\\b`));
    const prices = await http.get(`/admin/v1/orgs/${owner.orgId}/model-prices`, { token: testInfra().adminToken });
    assert.deepEqual(prices.body.organisation, [], 'the example puts the prices back');
  });

  it("runs docs/sdk-python.md's knowledge-from-files example in Python as it stands", async () => {
    const owner = await createTenant(http);
    const folder = mkdtempSync(join(work, 'files-'));
    copyFileSync(join(ROOT, 'test', 'fixtures', 'knowledge', 'report.pdf'), join(folder, 'handbook.pdf'));
    writeFileSync(join(folder, 'files.py'), docBlock(SDK_DOC, '### Knowledge from files', 'python'));
    const ran = await runCommand(python, ['files.py'], {
      cwd: folder,
      env: { ...process.env, PYLON_URL: stack.url, PYLON_API_KEY: owner.key, ORG_ID: owner.orgId },
      timeout: 120_000,
    });
    assert.equal(ran.status, 0, ran.stdout + ran.stderr);
    assert.match(ran.stdout, /^ready 1 handbook\.pdf application\/pdf$/m);
    assert.match(ran.stdout, /^match handbook\.pdf pages 1-[123]$/m);
    assert.match(ran.stdout, /^batch completed 2 of 2$/m);
    assert.match(ran.stdout, /^revision 2 serving 1$/m);
    assert.match(ran.stdout, /^downloaded handbook-v2\.md text\/markdown \d+$/m);
    assert.match(ran.stdout, /^revision 3$/m);
    assert.equal(readFileSync(join(folder, 'handbook-v2.md'), 'utf8'), '# Handbook, v2\n\nRuns are cancelled with POST …/cancel.');
  });

  it("runs docs/sdk-python.md's Schedules example in Python as it stands", async () => {
    const script = join(work, 'schedules.py');
    writeFileSync(script, docBlock(SDK_DOC, '### Schedules', 'python'));
    const ran = await runCommand(python, [script], {
      env: { ...process.env, PYLON_URL: stack.url, PYLON_API_KEY: tenant.key, ORG_ID: tenant.orgId, AGENT_VERSION_ID: tenant.versionId },
      timeout: 120_000,
    });
    assert.equal(ran.status, 0, ran.stdout + ran.stderr);
    assert.match(ran.stdout, /^next runs \[/m);
    assert.match(ran.stdout, /^\d{4}-\d{2}-\d{2}T\S+ [0-9a-f-]{36}$/m);
  });

  it('the package and a user script type-check with mypy --strict; a wrong keyword or type in a create does not', () => {
    execFileSync(join(tools, 'bin', 'mypy'), ['--strict', '--no-incremental', '-p', 'pylon_sdk'], {
      env: { ...process.env, MYPYPATH: join(PACKAGE, 'src') },
      encoding: 'utf8',
    });
    const sample = join(PACKAGE, 'tests', 'mypy_sample.py');
    const mypy = (file: string) => {
      try {
        return {
          code: 0,
          output: execFileSync(join(tools, 'bin', 'mypy'), ['--strict', '--python-executable', python, '--no-incremental', file], {
            encoding: 'utf8',
          }),
        };
      } catch (error) {
        const failure = error as { status: number; stdout: string };
        return { code: failure.status, output: failure.stdout };
      }
    };
    const right = mypy(sample);
    assert.equal(right.code, 0, right.output);
    const wrong = join(work, 'wrong.py');
    const source = readFileSync(sample, 'utf8');
    assert.ok(source.includes('input=question'), 'the sample creates with keyword arguments');
    for (const [mistake, named] of [
      ['input=question, temperature=2', /temperature/],
      ['input=len(question)', /input/],
    ] as const) {
      writeFileSync(wrong, source.replace('input=question', mistake));
      const refused = mypy(wrong);
      assert.notEqual(refused.code, 0, `mypy accepted ${mistake}`);
      assert.match(refused.output, named);
    }
  });
});
