import { randomBytes, randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, Socket, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCommand } from '../support/run-command';
import { FakeOpenAi } from '../support/fake-openai';
import { Http } from '../support/http';
import { testInfra } from '../support/infra';
import { Stack } from '../support/stack';
import { createTenant, createVersion, type Tenant } from '../support/tenant';
import { until } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';
import { grantTokens } from '../support/ledger';
import { docBlock } from '../support/doc-blocks';
import { pdfWithPages } from '../support/document-files';
import { sql } from '../support/db';
import type * as SdkModule from '../../packages/sdk/src/index';

type Sdk = typeof SdkModule;

/** The repository root, seen from dist-test/test/e2e/. */
const ROOT = join(__dirname, '..', '..', '..');
const SDK_DIR = join(ROOT, 'packages', 'sdk');
const SDK_TYPES = join(SDK_DIR, 'src', 'schema.ts');
/** The doc whose examples these tests run as they stand. */
const SDK_DOC = 'docs/sdk.md';
const WALKTHROUGH = '### The walkthrough';
/** A function tool the offline model calls when the input names it (`lookup_order for order 42` → {"order_id":"42"}). */
const LOOKUP_ORDER = {
  type: 'function' as const,
  name: 'lookup_order',
  description: 'Finds an order by its id.',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
};

/**
 * A TCP proxy in front of the API whose connections can all be cut at once, as a network drop would:
 * a client that reconnects gets through again.
 */
class CuttableProxy {
  private readonly sockets = new Set<Socket>();
  /** Client connections accepted so far. */
  accepted = 0;
  private server!: Server;
  url!: string;

  /** `swallowAnswers`: on that many first connections the API's answer never reaches the client (the connection drops instead). */
  static async start(target: URL, swallowAnswers = 0): Promise<CuttableProxy> {
    const proxy = new CuttableProxy();
    proxy.server = createServer((client) => {
      proxy.accepted++;
      const upstream = new Socket();
      upstream.connect(Number(target.port), target.hostname);
      for (const socket of [client, upstream]) {
        proxy.sockets.add(socket);
        socket.on('close', () => proxy.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      if (proxy.accepted <= swallowAnswers) {
        client.pipe(upstream);
        upstream.once('data', () => client.destroy());
      } else client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    proxy.url = `http://127.0.0.1:${(proxy.server.address() as { port: number }).port}`;
    return proxy;
  }

  cutAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  async stop(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * @pylon/sdk as a user gets it: packed with `npm pack`, installed into a fresh project, and used against the
 * running API and worker.
 */
describe('@pylon/sdk (TypeScript), installed from its packed tarball', () => {
  let project: string;
  let sdk: Sdk;
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;
  let fake: FakeOpenAi;
  let receiver: WebhookReceiver;

  before(async () => {
    project = mkdtempSync(join(tmpdir(), 'pylon-sdk-user-'));
    const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', project], { cwd: SDK_DIR, encoding: 'utf8' })
      .trim()
      .split('\n')
      .at(-1)!;
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'sdk-user', version: '1.0.0', private: true }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', join(project, packed)], { cwd: project, stdio: 'ignore' });
    sdk = createRequire(join(project, 'package.json'))('@pylon/sdk') as Sdk;
    fake = await FakeOpenAi.start();
    receiver = await WebhookReceiver.start();
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
  });
  after(async () => {
    await stack?.stop();
    await fake?.stop();
    await receiver?.stop();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  const client = (options: { apiKey?: string; baseUrl?: string; maxRetries?: number } = {}) =>
    new sdk.Pylon({ apiKey: options.apiKey ?? tenant.key, baseUrl: options.baseUrl ?? stack.url, maxRetries: options.maxRetries });
  const run = (input: string, versionId = tenant.versionId) => ({ org_id: tenant.orgId, agent_version_id: versionId, input });
  /** Follows a run's events until it waits for an action; answers that action. */
  const nextAction = async (pylon: SdkModule.Pylon, runId: string): Promise<SdkModule.RequiredAction> => {
    for await (const event of pylon.agentRuns.stream(runId)) if (event.type === 'requires_action') return event.data as SdkModule.RequiredAction;
    throw new Error(`run ${runId} ended without waiting for an action`);
  };
  /** Follows a run's events to its end; answers the finished run. */
  const finish = async (pylon: SdkModule.Pylon, runId: string): Promise<SdkModule.AgentRun> => {
    for await (const event of pylon.agentRuns.stream(runId)) if (sdk.TERMINAL_EVENTS.has(event.type)) return event.data as SdkModule.AgentRun;
    throw new Error(`run ${runId} stream ended without a terminal event`);
  };

  it('its API types are generated from the live OpenAPI document (SDK_UPDATE_API_TYPES=1 regenerates them)', () => {
    const generated = execFileSync(
      join(ROOT, 'node_modules', '.bin', 'openapi-typescript'),
      [`${stack.url}/integration/openapi.json`, '--default-non-nullable', 'false'],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    if (process.env.SDK_UPDATE_API_TYPES === '1') writeFileSync(SDK_TYPES, generated);
    assert.equal(readFileSync(SDK_TYPES, 'utf8'), generated, 'packages/sdk/src/schema.ts is stale: run this test with SDK_UPDATE_API_TYPES=1');
  });

  /** `tsc --strict` on a user's file that starts with `const pylon = new Pylon();`. */
  const compile = (code: string) => {
    writeFileSync(join(project, 'check.ts'), `import { Pylon } from '@pylon/sdk';\nconst pylon = new Pylon();\n${code}\n`);
    return runCommand(
      join(ROOT, 'node_modules', '.bin', 'tsc'),
      ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2022,dom', 'check.ts'],
      {
        cwd: project,
      },
    );
  };

  it('a create with a field the API does not take, or a wrong type, fails tsc; a right one compiles', async () => {
    const check = (body: string) => compile(`export const created = pylon.agentRuns.create(${body});`);
    assert.equal((await check(`{ org_id: 'o', agent_version_id: 'v', input: 'hello' }`)).status, 0);
    const extra = await check(`{ org_id: 'o', agent_version_id: 'v', input: 'hello', temperature: 2 }`);
    assert.notEqual(extra.status, 0);
    assert.match(extra.stdout, /temperature/);
    const wrongType = await check(`{ org_id: 'o', agent_version_id: 'v', input: 42 }`);
    assert.notEqual(wrongType.status, 0);
    assert.match(wrongType.stdout, /TS2322/);
  });

  it('a version create types response_format: a json_schema one compiles, another type does not', async () => {
    const check = (format: string) =>
      compile(
        `export const version = pylon.agents.createVersion('a', { model: 'local/extractive', instructions: 'x', response_format: ${format} });`,
      );
    const right = await check(`{ type: 'json_schema', name: 'ticket', schema: { type: 'object' }, strict: true }`);
    assert.equal(right.status, 0, right.stdout);
    assert.equal((await check('null')).status, 0, 'null is free text');
    const wrong = await check(`{ type: 'json_object', name: 'ticket', schema: {} }`);
    assert.notEqual(wrong.status, 0);
    assert.match(wrong.stdout, /json_object/);
    const usage =
      await compile(`export const cost: Promise<number> = pylon.agentRuns.usage('r').then((usage) => usage.turns[0]!.cost_tokens + usage.total.cost_tokens);
export const prices = pylon.admin.replaceModelPrices('o', { prices: [{ model: 'local/echo', input_per_1k_tokens: 1, output_per_1k_tokens: 2 }] });`);
    assert.equal(usage.status, 0, usage.stdout);
  });

  it("runTools' handlers, approve callback and conversation turn compile as a user writes them; a wrong approval does not", async () => {
    const runTools = (approve: string) =>
      compile(`export const finished: Promise<{ output?: string | null }> = pylon.agentRuns.runTools(
  { org_id: 'o', agent_version_id: 'v', input: 'hi', if_busy: 'reject' },
  {
    conversationId: 'c',
    tools: { lookup_order: async ({ order_id }: { order_id: string }) => ({ order_id }), echo: (args) => String(args.text) },
    approve: ${approve},
  },
);
export const turn = pylon.conversations.runs.create('c', { org_id: 'o', agent_version_id: 'v', input: 'hi', if_busy: 'enqueue' });`);
    const right = await runTools(`async (call) => (call.name === 'knowledge_search' ? true : { approve: false, reason: 'no' })`);
    assert.equal(right.status, 0, right.stdout);
    const wrong = await runTools(`async () => 'yes'`);
    assert.notEqual(wrong.status, 0);
    assert.match(wrong.stdout, /TS2322/);
  });

  it('its browser build bundles without Node built-ins, within 15 kB gzipped', async () => {
    const { rolldown } = await import('rolldown');
    const bundle = await rolldown({
      input: join(project, 'node_modules', '@pylon', 'sdk', 'dist', 'esm', 'index.js'),
      platform: 'browser',
      logLevel: 'silent',
    });
    const [chunk] = (await bundle.generate({ format: 'esm', minify: true })).output;
    await bundle.close();
    assert.doesNotMatch(chunk.code, /\bfrom\s*["']node:|require\(["']node:/);
    const gzipped = gzipSync(chunk.code).length;
    console.log(`# @pylon/sdk browser build: ${chunk.code.length} bytes minified, ${gzipped} bytes gzipped`);
    assert.ok(gzipped <= 15 * 1024, `${gzipped} bytes gzipped`);
  });

  /** Type-checks a user's file in the fresh project with `tsc --strict`, emitting its `.mjs`. */
  const compileStrict = (file: string) =>
    runCommand(
      join(ROOT, 'node_modules', '.bin', 'tsc'),
      [
        '--strict',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--lib',
        'es2022,dom',
        '--types',
        'node',
        '--typeRoots',
        join(ROOT, 'node_modules', '@types'),
        file,
      ],
      { cwd: project },
    );

  it("runs docs/sdk.md's TypeScript walkthrough as it stands, type-checked", async () => {
    await grantTokens(http, tenant.orgId, 1_000_000);
    writeFileSync(join(project, 'walkthrough.mts'), docBlock(SDK_DOC, WALKTHROUGH, 'ts'));
    const compiled = await compileStrict('walkthrough.mts');
    assert.equal(compiled.status, 0, compiled.stdout + compiled.stderr);
    const ran = await runCommand(process.execPath, ['walkthrough.mjs'], {
      cwd: project,
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

  it("runs docs/sdk.md's conversation-with-tools walkthrough in TypeScript as it stands, type-checked", async () => {
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
    writeFileSync(join(project, 'conversation.mts'), docBlock(SDK_DOC, '### A conversation with tools', 'ts'));
    const compiled = await compileStrict('conversation.mts');
    assert.equal(compiled.status, 0, compiled.stdout + compiled.stderr);
    const ran = await runCommand(process.execPath, ['conversation.mjs'], {
      cwd: project,
      env: { ...process.env, PYLON_URL: stack.url, PYLON_API_KEY: tenant.key, ORG_ID: tenant.orgId, TOOLS_VERSION_ID: toolsVersion },
      timeout: 120_000,
    });
    assert.equal(ran.status, 0, ran.stdout + ran.stderr);
    assert.match(ran.stdout, /lookup_order returned: \{"order_id":"42","status":"shipped"\}/);
    assert.match(ran.stdout, /^tool_output \{"order_id":"42","status":"shipped"\}$/m);
  });

  /** Type-checks a docs/sdk.md block as a user's `.mts` file and runs it with these variables; answers its stdout. */
  const runDocBlock = async (heading: string, file: string, env: Record<string, string>) => {
    writeFileSync(join(project, `${file}.mts`), docBlock(SDK_DOC, heading, 'ts'));
    const compiled = await compileStrict(`${file}.mts`);
    assert.equal(compiled.status, 0, compiled.stdout + compiled.stderr);
    const ran = await runCommand(process.execPath, [`${file}.mjs`], {
      cwd: project,
      env: { ...process.env, PYLON_URL: stack.url, ...env },
      timeout: 120_000,
    });
    assert.equal(ran.status, 0, ran.stdout + ran.stderr);
    return ran.stdout;
  };

  it("runs docs/sdk.md's structured-output example in TypeScript as it stands, type-checked", async () => {
    const owner = await createTenant(http);
    const stdout = await runDocBlock('### Structured outputs', 'structured', {
      PYLON_API_KEY: owner.key,
      ORG_ID: owner.orgId,
      AGENT_ID: owner.agentId,
    });
    assert.match(stdout, /^high 4711$/m);
  });

  it("runs docs/sdk.md's run-cost example in TypeScript as it stands, type-checked", async () => {
    const owner = await createTenant(http);
    await grantTokens(http, owner.orgId, 100_000);
    const stdout = await runDocBlock('### What a run costs', 'costs', {
      PYLON_API_KEY: owner.key,
      PYLON_ADMIN_TOKEN: testInfra().adminToken,
      ORG_ID: owner.orgId,
      AGENT_VERSION_ID: owner.versionId,
    });
    const [turn] = (await client({ apiKey: owner.key }).agentRuns.list({ limit: 1 }).firstPage()).data;
    const usage = await client({ apiKey: owner.key }).agentRuns.usage(turn!.run_id);
    assert.ok(usage.total.cost_tokens > 0, JSON.stringify(usage));
    assert.match(stdout, new RegExp(`^total ${usage.total.cost_tokens}$`, 'm'));
    assert.match(stdout, /^1 local\/extractive \d+ \d+ tokenizer \d+ true$/m);
    assert.deepEqual(
      (await client({ apiKey: testInfra().adminToken }).admin.getModelPrices(owner.orgId)).organisation,
      [],
      'the example puts the prices back',
    );
  });

  it("runs docs/sdk.md's knowledge-from-files example in TypeScript as it stands, type-checked", async () => {
    const owner = await createTenant(http);
    copyFileSync(join(ROOT, 'test', 'fixtures', 'knowledge', 'report.pdf'), join(project, 'handbook.pdf'));
    const stdout = await runDocBlock('### Knowledge from files', 'files', { PYLON_API_KEY: owner.key, ORG_ID: owner.orgId });
    assert.match(stdout, /^ready 1 handbook\.pdf application\/pdf$/m);
    assert.match(stdout, /^match handbook\.pdf pages 1-[123]$/m);
    assert.match(stdout, /^batch completed 2 of 2$/m);
    assert.match(stdout, /^revision 2 serving 1$/m);
    assert.match(stdout, /^downloaded handbook-v2\.md text\/markdown \d+$/m);
    assert.match(stdout, /^revision 3$/m);
    assert.equal(readFileSync(join(project, 'handbook-v2.md'), 'utf8'), '# Handbook, v2\n\nRuns are cancelled with POST …/cancel.');
  });

  it('a version with response_format answers JSON: output parses, the succeeded event carries it parsed, the version shows the format', async () => {
    const pylon = client();
    const format: SdkModule.ResponseFormat = {
      type: 'json_schema',
      name: 'ticket',
      schema: {
        type: 'object',
        properties: { summary: { type: 'string' }, priority: { enum: ['low', 'high'] }, customer_id: { type: 'integer' } },
        required: ['summary', 'priority', 'customer_id'],
      },
    };
    const version = await pylon.agents.createVersion(tenant.agentId, {
      model: 'local/extractive',
      instructions: 'Summarise.',
      response_format: format,
    });
    assert.deepEqual(version.response_format, { ...format, strict: true });
    assert.deepEqual((await pylon.agents.getVersion(version.agent_version_id)).response_format, version.response_format);
    const events = [];
    for await (const event of pylon.agentRuns.createAndStream(run('Customer 4711 cannot log in. priority: high', version.agent_version_id)))
      events.push(event);
    const succeeded = events.at(-1)!;
    assert.equal(succeeded.type, 'succeeded', JSON.stringify(succeeded.data));
    const finished = succeeded.data as SdkModule.AgentRun & { output_parsed: unknown };
    const parsed = JSON.parse(finished.output!) as { summary: string; priority: string; customer_id: number };
    assert.equal(parsed.priority, 'high');
    assert.equal(parsed.customer_id, 4711);
    assert.equal(typeof parsed.summary, 'string');
    assert.deepEqual(finished.output_parsed, parsed);
    assert.ok(!events.some((event) => event.type === 'output_delta'), 'a structured answer arrives whole');
    const refused = await pylon.agents
      .createVersion(tenant.agentId, {
        model: 'local/extractive',
        instructions: 'x',
        response_format: { type: 'json_schema', name: 'nested', schema: { type: 'object', properties: { a: { type: 'object' } } } },
      })
      .catch((error: unknown) => error);
    assert.ok(refused instanceof sdk.InvalidRequestError, 'local/extractive fills only flat objects');
  });

  it("agentRuns.usage: a run's turns and total; prices set as admin charge the next run, debited from the ledger naming the run", async () => {
    const admin = client({ apiKey: testInfra().adminToken });
    const owner = await createTenant(http);
    const pylon = client({ apiKey: owner.key });
    const body = { org_id: owner.orgId, agent_version_id: owner.versionId, input: 'What is Pylon?' };
    const free = await pylon.agentRuns.createAndWait(body);
    const freeUsage = await pylon.agentRuns.usage(free.run_id);
    assert.equal(freeUsage.run_id, free.run_id);
    assert.equal(freeUsage.total.turns, freeUsage.turns.length);
    const [first] = freeUsage.turns;
    assert.deepEqual(
      [first!.turn, first!.model, first!.counted_by, first!.cost_tokens, first!.charged],
      [1, 'local/extractive', 'tokenizer', 0, true],
    );
    assert.ok(first!.input_tokens > 0 && first!.output_tokens > 0, JSON.stringify(first));
    assert.equal(freeUsage.total.input_tokens, first!.input_tokens);

    const before = await admin.admin.getModelPrices(owner.orgId);
    assert.equal(before.org_id, owner.orgId);
    assert.deepEqual(before.organisation, []);
    const price = { model: 'local/extractive', input_per_1k_tokens: 1000, output_per_1k_tokens: 2000 };
    const replaced = await admin.admin.replaceModelPrices(owner.orgId, { prices: [price] });
    assert.deepEqual(replaced.organisation, [price]);
    assert.deepEqual(await admin.admin.getModelPrices(owner.orgId), replaced);
    await assert.rejects(pylon.agentRuns.create(body), sdk.InsufficientTokensError, 'a priced model with an empty balance is 402');
    await admin.admin.grantTokens(owner.orgId, { amount: 100_000, reason: 'sdk costs' });
    const paid = await pylon.agentRuns.createAndWait(body);
    assert.equal(paid.status, 'succeeded', paid.error ?? '');
    const usage = await pylon.agentRuns.usage(paid.run_id);
    const expected = usage.turns.reduce((sum, turn) => sum + turn.input_tokens + 2 * turn.output_tokens, 0);
    assert.equal(usage.total.cost_tokens, expected);
    assert.ok(expected > 0 && usage.turns.every((turn) => turn.charged && turn.cost_tokens > 0), JSON.stringify(usage));
    const debits = (await pylon.tokens.entries().all()).filter((entry) => entry.reference_type === 'agent_run');
    assert.deepEqual(
      debits.map((entry) => [entry.kind, entry.reference_id, entry.delta]),
      [['debit', paid.run_id, -expected]],
    );
    assert.equal((await pylon.tokens.balance()).balance, 100_000 - expected);
    const models = (await pylon.usage.get()).windows[0]!.models!;
    assert.equal(models.run_cost_tokens, expected);
    assert.equal(models.turns, freeUsage.total.turns + usage.total.turns);
    assert.deepEqual((await admin.admin.replaceModelPrices(owner.orgId, { prices: [] })).organisation, []);
  });

  it("runs docs/sdk.md's Schedules example in TypeScript as it stands, type-checked", async () => {
    writeFileSync(join(project, 'schedules.mts'), docBlock(SDK_DOC, '### Schedules', 'ts'));
    const compiled = await compileStrict('schedules.mts');
    assert.equal(compiled.status, 0, compiled.stdout + compiled.stderr);
    const ran = await runCommand(process.execPath, ['schedules.mjs'], {
      cwd: project,
      env: { ...process.env, PYLON_URL: stack.url, PYLON_API_KEY: tenant.key, ORG_ID: tenant.orgId, AGENT_VERSION_ID: tenant.versionId },
      timeout: 120_000,
    });
    assert.equal(ran.status, 0, ran.stdout + ran.stderr);
    assert.match(ran.stdout, /^next runs \[/m);
    assert.match(ran.stdout, /^\d{4}-\d{2}-\d{2}T\S+ [0-9a-f-]{36}$/m);
  });

  it('creates a run and streams it to its end; createAndWait answers the finished run', async () => {
    const pylon = client();
    const events = [];
    for await (const event of pylon.agentRuns.createAndStream(run('What is Pylon?'))) events.push(event);
    assert.deepEqual(
      events.map((event) => event.seq),
      events.map((_, i) => i + 1),
    );
    assert.equal(events[0]!.type, 'queued');
    assert.equal(events.at(-1)!.type, 'succeeded');
    const finished = await pylon.agentRuns.createAndWait(run('And again?'));
    assert.equal(finished.status, 'succeeded');
    assert.equal((await pylon.agentRuns.get(finished.run_id)).output, finished.output);
  });

  it('a stream whose connection is cut mid-run resumes with Last-Event-ID: no event lost, none repeated', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'openai/gpt-4o-mini' });
    fake.enqueue({ delayMs: 2_000, content: 'after the cut' });
    const proxy = await CuttableProxy.start(new URL(stack.url));
    try {
      const pylon = client({ baseUrl: proxy.url });
      const created = await pylon.agentRuns.create(run('survive a cut', versionId));
      const events = [];
      for await (const event of pylon.agentRuns.stream(created.run_id)) {
        events.push(event);
        if (event.type === 'running') proxy.cutAll();
      }
      const stored = (await http.get(`/api/v1/agent-runs/${created.run_id}/events?limit=100`, { token: tenant.key })).body.data;
      assert.deepEqual(
        events.map((event) => [event.seq, event.type]),
        stored.map((event: { seq: number; type: string }) => [event.seq, event.type]),
      );
      assert.equal(events.at(-1)!.type, 'succeeded');
      assert.equal((events.at(-1)!.data as { output: string }).output, 'after the cut');
      assert.ok(proxy.accepted >= 2, 'the stream was cut and connected again');
    } finally {
      await proxy.stop();
    }
  });

  it('an agent create whose answer is lost on the way back is retried with its Idempotency-Key: one agent', async () => {
    const proxy = await CuttableProxy.start(new URL(stack.url), 1);
    const name = `retried ${randomUUID()}`;
    try {
      const agent = await client({ baseUrl: proxy.url }).agents.create({ org_id: tenant.orgId, name });
      assert.ok(proxy.accepted >= 2, 'the first answer was dropped and the create sent again');
      const agents = (await http.get('/api/v1/agents?limit=100', { token: tenant.key })).body.data as Array<{ agent_id: string; name: string }>;
      assert.deepEqual(
        agents.filter((one) => one.name === name).map((one) => one.agent_id),
        [agent.agent_id],
      );
    } finally {
      await proxy.stop();
    }
  });

  it('rides out a 429 storm (a key with 2 requests/s): 20 concurrent creates each land exactly once', async () => {
    const admin = client({ apiKey: testInfra().adminToken });
    const created = await admin.admin.createApiKey(tenant.orgId, { name: 'tiny rate', scopes: ['runs:create', 'runs:read'] });
    await admin.admin.updateApiKey(created.key_id, { rate_limit_per_second: 2, rate_limit_burst: 2 });
    const slow = client({ apiKey: created.api_key, maxRetries: 100 });
    const inputs = Array.from({ length: 20 }, (_, i) => `storm ${i} ${Date.now()}`);
    const runs = await Promise.all(inputs.map((input) => slow.agentRuns.create(run(input))));
    assert.equal(new Set(runs.map((created) => created.run_id)).size, 20);
    const rows = await sql<{ input: string; n: number }>(
      'SELECT input, count(*)::int AS n FROM agent_runs WHERE org_id = $1 AND input = ANY($2) GROUP BY input',
      [tenant.orgId, inputs],
    );
    assert.equal(rows.length, 20, 'every create landed');
    assert.ok(
      rows.every((row) => row.n === 1),
      'none twice',
    );
  });

  it('iterates 250 runs over cursor pages, each once', async () => {
    const owner = await createTenant(http);
    const pylon = client({ apiKey: owner.key });
    const created = new Set<string>();
    for (let i = 0; i < 250; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: 25 }, (_, j) =>
          pylon.agentRuns.create({ org_id: owner.orgId, agent_version_id: owner.versionId, input: `page ${i + j}` }),
        ),
      );
      for (const one of batch) created.add(one.run_id);
    }
    const seen: string[] = [];
    for await (const listed of pylon.agentRuns.list({ limit: 100 })) seen.push(listed.run_id);
    assert.equal(seen.length, 250);
    assert.deepEqual(new Set(seen), created);
  });

  it('verifies a delivered webhook with webhooks.verify, and refuses a tampered one', async () => {
    const pylon = client();
    const endpoint = await pylon.webhooks.create({ org_id: tenant.orgId, url: `${receiver.baseUrl}/sdk`, events: ['agent_run.succeeded'] });
    const finished = await pylon.agentRuns.createAndWait(run('tell the receiver'));
    const [delivered] = (await receiver.waitFor('/sdk', 1)).filter((webhook) => webhook.json?.data?.run_id === finished.run_id);
    assert.ok(delivered, 'the run was delivered');
    const event = await pylon.webhooks.verify(delivered.body, delivered.headers as Record<string, string>, endpoint.secret);
    assert.equal(event.type, 'agent_run.succeeded');
    await assert.rejects(
      pylon.webhooks.verify(delivered.body.replace('succeeded', 'failed'), delivered.headers as Record<string, string>, endpoint.secret),
      sdk.WebhookVerificationError,
    );
    await pylon.webhooks.delete(endpoint.endpoint_id);
  });

  it('answers API errors as PylonError subclasses with status, code, detail and request id', async () => {
    const pylon = client();
    const missing = await pylon.agentRuns.get('00000000-0000-4000-8000-000000000000').catch((error: unknown) => error);
    assert.ok(missing instanceof sdk.NotFoundError);
    assert.equal(missing.status, 404);
    assert.equal(missing.code, 'not_found');
    assert.match(missing.requestId ?? '', /\S/);
    const invalid = await pylon.agentRuns
      .create({ org_id: tenant.orgId, agent_version_id: tenant.versionId, input: '' })
      .catch((error: unknown) => error);
    assert.ok(invalid instanceof sdk.InvalidRequestError);
    assert.match(invalid.detail ?? '', /input/);
    const refused = await client({ apiKey: 'pyl_not_a_key' })
      .apiKeys.whoami()
      .catch((error: unknown) => error);
    assert.ok(refused instanceof sdk.InvalidApiKeyError, 'one class per code…');
    assert.ok(refused instanceof sdk.AuthenticationError, '…under the class of its kind');
  });

  it('a conversation remembers its earlier turns; its items list oldest first, page after page; delete removes it', async () => {
    const pylon = client();
    const conversation = await pylon.conversations.create({ org_id: tenant.orgId, metadata: { user_id: 'u_42' } });
    assert.deepEqual(conversation.metadata, { user_id: 'u_42' });
    assert.deepEqual(await pylon.conversations.get(conversation.conversation_id), conversation);
    const first = await pylon.conversations.runs.create(conversation.conversation_id, run('My favourite colour is teal.'));
    assert.equal((await finish(pylon, first.run_id)).status, 'succeeded');
    const second = await pylon.conversations.runs.create(conversation.conversation_id, run('What is my favourite colour?'));
    const answered = await finish(pylon, second.run_id);
    assert.equal(answered.status, 'succeeded', answered.error ?? '');
    assert.match(answered.output ?? '', /^.*\bteal\b.*$/m);
    const items = await pylon.conversations.items(conversation.conversation_id, { limit: 1 }).all();
    assert.deepEqual(
      items.map((item) => [item.type, item.run_id]),
      [
        ['input', first.run_id],
        ['answer', first.run_id],
        ['input', second.run_id],
        ['answer', second.run_id],
      ],
    );
    assert.equal(items[0]!.text, 'My favourite colour is teal.');
    assert.equal(items[3]!.text, answered.output);
    const listed = await pylon.conversations.list({ limit: 100 }).all();
    assert.ok(listed.some((one) => one.conversation_id === conversation.conversation_id));
    await pylon.conversations.delete(conversation.conversation_id);
    await assert.rejects(pylon.conversations.get(conversation.conversation_id), sdk.NotFoundError);
    assert.equal((await pylon.agentRuns.get(second.run_id)).output, answered.output, 'its runs stay readable');
  });

  it('runTools answers function calls with local handlers (what they return, or the error they throw), also as a conversation turn', async () => {
    const pylon = client();
    const version = await pylon.agents.createVersion(tenant.agentId, { model: 'local/extractive', instructions: 'Answer.', tools: [LOOKUP_ORDER] });
    const calls: unknown[] = [];
    const options: SdkModule.RunToolsOptions = {
      idempotencyKey: randomUUID(),
      tools: {
        lookup_order: async (args: { order_id: string }, context) => {
          calls.push([args, context.call.name, context.runId]);
          return { order_id: args.order_id, status: 'shipped', carrier: 'DHL' };
        },
      },
    };
    const shipped = await pylon.agentRuns.runTools(run('Please lookup_order for order 42.', version.agent_version_id), options);
    assert.equal(shipped.status, 'succeeded', shipped.error ?? '');
    assert.deepEqual(calls, [[{ order_id: '42' }, 'lookup_order', shipped.run_id]]);
    assert.match(shipped.output ?? '', /lookup_order returned: \{"order_id":"42","status":"shipped","carrier":"DHL"\}/);
    // The same Idempotency-Key again picks up the same run: its stream replays the answered action, which is not answered twice.
    assert.deepEqual(await pylon.agentRuns.runTools(run('Please lookup_order for order 42.', version.agent_version_id), options), shipped);
    assert.equal(calls.length, 1);

    const thrown = await pylon.agentRuns.runTools(run('lookup_order for order 7', version.agent_version_id), {
      tools: {
        lookup_order: () => {
          throw new Error('the order service is down');
        },
      },
    });
    assert.equal(thrown.status, 'succeeded', thrown.error ?? '');
    assert.match(thrown.output ?? '', /lookup_order returned: \{"error":"the order service is down"\}/);

    const conversation = await pylon.conversations.create({ org_id: tenant.orgId });
    const turn = await pylon.agentRuns.runTools(run('lookup_order for order 9', version.agent_version_id), {
      conversationId: conversation.conversation_id,
      tools: { lookup_order: ({ order_id }: { order_id: string }) => `order ${order_id} is on its way` },
    });
    assert.equal(turn.status, 'succeeded', turn.error ?? '');
    assert.match(turn.output ?? '', /lookup_order returned: order 9 is on its way/);
    const items = await pylon.conversations.items(conversation.conversation_id).all();
    assert.deepEqual(
      items.map((item) => [item.type, item.run_id]),
      ['input', 'tool_call', 'tool_output', 'answer'].map((type) => [type, turn.run_id]),
    );
    assert.deepEqual(
      [items[1]!.name, JSON.parse(items[1]!.arguments!), items[2]!.output],
      ['lookup_order', { order_id: '9' }, 'order 9 is on its way'],
    );
  });

  it('runTools asks the approve callback: a denial with a reason is told to the model; without a callback each call is approved', async () => {
    const pylon = client();
    const gated = await pylon.agents.createVersion(tenant.agentId, {
      model: 'local/extractive',
      instructions: 'Answer.',
      tools: [{ type: 'knowledge_search', require_approval: 'always' }],
    });
    const asked: string[] = [];
    const denied = await pylon.agentRuns.runTools(run('How many days do I have for returns?', gated.agent_version_id), {
      approve: async (call) => {
        asked.push(call.name);
        return { approve: false, reason: 'not during the audit' };
      },
    });
    assert.deepEqual(asked, ['knowledge_search']);
    assert.equal(denied.status, 'succeeded', denied.error ?? '');
    assert.match(denied.output ?? '', /not approved: not during the audit/);
    const approved = await pylon.agentRuns.runTools(run('How many days do I have for returns?', gated.agent_version_id));
    assert.equal(approved.status, 'succeeded', approved.error ?? '');
    assert.doesNotMatch(approved.output ?? '', /not approved/);
    const decisions = (await pylon.agentRuns.events(approved.run_id).all()).filter((event) => event.type === 'tool_approval');
    assert.deepEqual(
      decisions.map((event) => event.data.approved),
      [true],
    );
  });

  it('requiredAction and submitToolOutputs answer a waiting run directly; a second, different answer is RunNotWaitingError', async () => {
    const pylon = client();
    const version = await pylon.agents.createVersion(tenant.agentId, { model: 'local/extractive', instructions: 'Answer.', tools: [LOOKUP_ORDER] });
    const created = await pylon.agentRuns.create(run('lookup_order for order 5', version.agent_version_id));
    const announced = await nextAction(pylon, created.run_id);
    const action = await pylon.agentRuns.requiredAction(created.run_id);
    assert.deepEqual(action, announced);
    assert.equal(action.type, 'submit_tool_outputs');
    assert.equal((await pylon.agentRuns.get(created.run_id)).status, 'running', 'a waiting run is running');
    const [call] = action.tool_calls;
    assert.deepEqual([call!.name, JSON.parse(call!.arguments)], ['lookup_order', { order_id: '5' }]);
    const answered = await pylon.agentRuns.submitToolOutputs(created.run_id, {
      tool_outputs: [{ tool_call_id: call!.id, output: '{"status":"lost"}' }],
    });
    assert.equal(answered.run_id, created.run_id);
    const finished = await finish(pylon, created.run_id);
    assert.equal(finished.status, 'succeeded', finished.error ?? '');
    assert.match(finished.output ?? '', /lookup_order returned: \{"status":"lost"\}/);
    await assert.rejects(pylon.agentRuns.requiredAction(created.run_id), sdk.NotFoundError);
    await assert.rejects(
      pylon.agentRuns.submitToolOutputs(created.run_id, { tool_outputs: [{ tool_call_id: call!.id, output: 'another' }] }),
      sdk.RunNotWaitingError,
    );
  });

  it('knowledge from files: a PDF uploaded from a path, bytes and a Blob, queried by base, downloaded, replaced by a file and by text; batches of texts and files; knowledge bases CRUD', async () => {
    const pylon = client();
    const orgId = tenant.orgId;
    /** The document once its latest revision is ready (its ready_revision is then that revision). */
    const ready = (docId: string): Promise<SdkModule.KnowledgeDocument> =>
      until(
        `document ${docId} ready`,
        async () => {
          const document = await pylon.knowledge.documents.get(docId);
          if (document.status === 'failed') throw new Error(`${docId} failed: ${document.failure_reason}`);
          return document.status === 'ready' && document.ready_revision === document.revision && document;
        },
        { timeoutMs: 120_000 },
      );
    const batchEnded = (batchId: string): Promise<SdkModule.KnowledgeBatch> =>
      until(
        `batch ${batchId} ended`,
        async () => {
          const batch = await pylon.knowledge.batches.get(batchId);
          return batch.status !== 'processing' && batch;
        },
        { timeoutMs: 120_000 },
      );

    // The default base is the oldest: one made first keeps this test's base from being it.
    await pylon.knowledgeBases.create({ org_id: orgId, name: `SDK other ${randomUUID()}` });
    const base = await pylon.knowledgeBases.create({ org_id: orgId, name: `SDK files ${randomUUID()}`, description: 'from the SDK test' });
    assert.equal(base.is_default, false);
    assert.equal(base.document_count, 0);
    const kb = base.knowledge_base_id;

    // From a path on disk: its name is the file name (and the title).
    const reportPath = join(ROOT, 'test', 'fixtures', 'knowledge', 'report.pdf');
    const fromPath = await pylon.knowledge.files.upload(reportPath, { knowledgeBaseId: kb, metadata: { source: 'path' } });
    assert.equal(fromPath.knowledge_base_id, kb);
    assert.equal(fromPath.revision, 1);
    assert.deepEqual(fromPath.metadata, { source: 'path' });
    assert.equal(fromPath.file?.name, 'report.pdf');
    assert.equal(fromPath.file?.type, 'pdf');
    // From bytes, with a name and a title; from a Blob into the default base.
    const walrus = await pdfWithPages([[{ text: 'Walrus tusks keep growing for the whole of a walrus life.', x: 50, y: 780 }]]);
    const fromBytes = await pylon.knowledge.files.upload(walrus, { fileName: 'walrus.pdf', title: 'Walrus facts', knowledgeBaseId: kb, orgId });
    assert.equal(fromBytes.title, 'Walrus facts');
    assert.equal(fromBytes.file?.name, 'walrus.pdf');
    const fromBlob = await pylon.knowledge.files.upload(new Blob([walrus]), { fileName: 'walrus-copy.pdf' });
    assert.notEqual(fromBlob.knowledge_base_id, kb);
    // The same key again answers the same document.
    const key = randomUUID();
    const first = await pylon.knowledge.files.upload(new File([walrus], 'keyed.pdf'), { idempotencyKey: key, knowledgeBaseId: kb });
    const again = await pylon.knowledge.files.upload(new File([walrus], 'keyed.pdf'), { idempotencyKey: key, knowledgeBaseId: kb });
    assert.equal(again.doc_id, first.doc_id);
    assert.equal(first.file?.name, 'keyed.pdf');
    for (const document of [fromPath, fromBytes, fromBlob, first]) assert.ok((await ready(document.doc_id)).chunk_count > 0);

    // Query only that base: the walrus page, with its page numbers.
    const { matches } = await pylon.knowledge.query({ org_id: orgId, query: 'walrus tusks', knowledge_base_ids: [kb] });
    assert.ok(matches.length > 0);
    assert.ok(matches.every((match) => match.knowledge_base_id === kb && match.doc_id !== fromBlob.doc_id));
    const walrusMatch = matches.find((match) => match.doc_id === fromBytes.doc_id)!;
    assert.ok(walrusMatch, JSON.stringify(matches));
    assert.equal(walrusMatch.page_start, 1);
    assert.equal(walrusMatch.page_end, 1);

    // Download: the very bytes, name and media type.
    const downloaded = await pylon.knowledge.files.download(fromPath.doc_id);
    assert.deepEqual(downloaded.bytes, new Uint8Array(readFileSync(reportPath)));
    assert.equal(downloaded.fileName, 'report.pdf');
    assert.equal(downloaded.mediaType, 'application/pdf');

    // Replace by a file: revision 2, whose file is then the one downloaded; by text: revision 3, without a file.
    const narwhal = await pdfWithPages([[{ text: 'Narwhal tusks are long spiral teeth.', x: 50, y: 780 }]]);
    const replaced = await pylon.knowledge.documents.replaceFile(fromBytes.doc_id, narwhal, { fileName: 'narwhal.pdf', title: 'Narwhal facts' });
    assert.equal(replaced.revision, 2);
    const second = await ready(fromBytes.doc_id);
    assert.equal(second.ready_revision, 2);
    assert.equal(second.title, 'Narwhal facts');
    assert.equal(second.file?.name, 'narwhal.pdf');
    const download2 = await pylon.knowledge.files.download(fromBytes.doc_id);
    assert.deepEqual(download2.bytes, narwhal);
    assert.equal(download2.fileName, 'narwhal.pdf');
    const retexted = await pylon.knowledge.documents.replace(fromBytes.doc_id, { org_id: orgId, content: 'Narwhals live in Arctic waters.' });
    assert.equal(retexted.revision, 3);
    assert.equal((await ready(fromBytes.doc_id)).file, null);

    // A batch of texts (JSON) and one of files (multipart), followed to their end.
    const texts = await pylon.knowledge.batches.create({
      org_id: orgId,
      knowledge_base_id: kb,
      documents: [
        { title: 'Seals', content: 'Seals sleep in the water.' },
        { title: 'Otters', content: 'Otters hold hands while sleeping.', metadata: { animal: 'otter' } },
      ],
    });
    assert.equal(texts.counts.total, 2);
    const textsDone = await batchEnded(texts.batch_id);
    assert.equal(textsDone.status, 'completed');
    assert.deepEqual(textsDone.counts, { total: 2, processing: 0, ready: 2, failed: 0 });
    assert.deepEqual(
      textsDone.documents.map((document) => document.title),
      ['Seals', 'Otters'],
    );
    const files = await pylon.knowledge.batches.create({
      files: [reportPath, { file: walrus, fileName: 'walrus-batch.pdf' }, new File(['# Puffins\n\nPuffins nest in burrows.'], 'puffins.md')],
      metadata: { batch: 'files' },
      knowledgeBaseId: kb,
    });
    assert.equal(files.counts.total, 3);
    const filesDone = await batchEnded(files.batch_id);
    assert.equal(filesDone.status, 'completed');
    assert.equal(filesDone.counts.ready, 3, JSON.stringify(filesDone));
    assert.deepEqual((await pylon.knowledge.documents.get(filesDone.documents[2]!.doc_id)).metadata, { batch: 'files' });
    // A cancel answers the batch (ended already, it stays as it was).
    const cancelled = await pylon.knowledge.batches.cancel(files.batch_id);
    assert.equal(cancelled.batch_id, files.batch_id);
    assert.equal(cancelled.status, 'completed');

    // Knowledge bases: get, list, update, delete (refused while it holds documents, unless cascading).
    assert.equal((await pylon.knowledgeBases.get(kb)).document_count, 8);
    assert.ok((await pylon.knowledgeBases.list({ limit: 1 }).all()).some((listed) => listed.knowledge_base_id === kb));
    const renamed = await pylon.knowledgeBases.update(kb, { name: `Renamed ${randomUUID()}` });
    assert.match(renamed.name, /^Renamed /);
    await assert.rejects(
      pylon.knowledgeBases.delete(kb),
      (error: unknown) => error instanceof sdk.ConflictError && error.code === 'knowledge_base_not_empty',
    );
    await pylon.knowledgeBases.delete(kb, { cascade: true });
    await assert.rejects(pylon.knowledgeBases.get(kb), sdk.NotFoundError);
    await assert.rejects(pylon.knowledge.documents.get(fromPath.doc_id), sdk.NotFoundError);
  });

  it('calls every resource method once against the live API', async () => {
    const admin = client({ apiKey: testInfra().adminToken });
    const called: string[] = [];
    const call = async <T>(name: string, promise: Promise<T>): Promise<T> => {
      const result = await promise;
      called.push(name);
      return result;
    };

    // admin
    const org = await call('admin.createOrg', admin.admin.createOrg({ name: 'SDK org' }));
    await call('admin.listOrgs', admin.admin.listOrgs({ limit: 5 }).firstPage());
    const orgKey = await call('admin.createApiKey', admin.admin.createApiKey(org.org_id, { name: 'all', scopes: ['*'] }));
    await call('admin.listApiKeys', admin.admin.listApiKeys(org.org_id).all());
    await call('admin.updateApiKey', admin.admin.updateApiKey(orgKey.key_id, { rate_limit_per_second: null }));
    const spare = await admin.admin.createApiKey(org.org_id, { name: 'spare', scopes: ['runs:read'] });
    await call('admin.rollApiKey', admin.admin.rollApiKey(spare.key_id, { grace_seconds: 0 }));
    await call('admin.revokeApiKey', admin.admin.revokeApiKey(spare.key_id));
    await call('admin.getLimits', admin.admin.getLimits(org.org_id));
    await call('admin.updateLimits', admin.admin.updateLimits(org.org_id, { dispatch_weight: 2 }));
    await call('admin.grantTokens', admin.admin.grantTokens(org.org_id, { amount: 2_000_000, reason: 'sdk' }));
    await call('admin.replaceModelPrices', admin.admin.replaceModelPrices(org.org_id, { prices: [] }));
    await call('admin.getModelPrices', admin.admin.getModelPrices(org.org_id));
    await call('admin.knowledgeIndex', admin.admin.knowledgeIndex(org.org_id));

    const mine = client({ apiKey: orgKey.api_key });
    // api keys
    await call('apiKeys.whoami', mine.apiKeys.whoami());
    const own = await call('apiKeys.create', mine.apiKeys.create({ name: 'own', scopes: ['runs:read'] }));
    await call('apiKeys.list', mine.apiKeys.list().all());
    await call('apiKeys.roll', mine.apiKeys.roll(own.key_id, { grace_seconds: 0 }));
    await call('apiKeys.revoke', mine.apiKeys.revoke(own.key_id));
    // agents
    const agent = await call('agents.create', mine.agents.create({ org_id: org.org_id, name: 'SDK agent' }));
    await call('agents.get', mine.agents.get(agent.agent_id));
    await call('agents.list', mine.agents.list().all());
    const version = await call(
      'agents.createVersion',
      mine.agents.createVersion(agent.agent_id, { model: 'local/extractive', instructions: 'Answer.' }),
    );
    await call('agents.listVersions', mine.agents.listVersions(agent.agent_id).all());
    await call('agents.getVersion', mine.agents.getVersion(version.agent_version_id));
    const providers = await call('agents.modelProviders', mine.agents.modelProviders());
    assert.deepEqual(providers.data[0], {
      provider: 'local',
      configured: true,
      available: true,
      takes_key: false,
      key_source: null,
      models: ['local/extractive', 'local/echo'],
    });
    // model credentials: the organisation's own OpenAI key, masked, checked, then removed
    const ownKey = `sk-org-${randomUUID()}`;
    const credential = await call('modelCredentials.put', mine.modelCredentials.put('openai', { api_key: ownKey }));
    assert.ok(
      credential.provider === 'openai' && credential.api_key !== ownKey && credential.api_key.endsWith(ownKey.slice(-4)),
      JSON.stringify(credential),
    );
    const credentials = await call('modelCredentials.list', mine.modelCredentials.list());
    assert.deepEqual(credentials.data, [credential]);
    assert.deepEqual(await call('modelCredentials.check', mine.modelCredentials.check('openai')), { provider: 'openai', valid: true, reason: null });
    const onOwnKey = (await mine.agents.modelProviders()).data.find((one) => one.provider === 'openai');
    assert.equal(onOwnKey?.key_source, 'organization', JSON.stringify(onOwnKey));
    await call('modelCredentials.remove', mine.modelCredentials.remove('openai'));
    await assert.rejects(mine.modelCredentials.check('openai'), sdk.NotFoundError);
    // runs
    const body = { org_id: org.org_id, agent_version_id: version.agent_version_id, input: 'hello' };
    const created = await call('agentRuns.create', mine.agentRuns.create(body));
    await call('agentRuns.get', mine.agentRuns.get(created.run_id));
    await call('agentRuns.list', mine.agentRuns.list({ limit: 10 }).firstPage());
    await call(
      'agentRuns.cancel',
      mine.agentRuns.cancel(created.run_id).catch((error: unknown) => (error instanceof sdk.ConflictError ? error : Promise.reject(error))),
    );
    for await (const event of mine.agentRuns.stream(created.run_id)) if (sdk.TERMINAL_EVENTS.has(event.type)) called.push('agentRuns.stream');
    await call('agentRuns.events', mine.agentRuns.events(created.run_id).all());
    await call('agentRuns.usage', mine.agentRuns.usage(created.run_id));
    await call('agentRuns.createAndWait', mine.agentRuns.createAndWait(body));
    for await (const event of mine.agentRuns.createAndStream(body)) if (sdk.TERMINAL_EVENTS.has(event.type)) called.push('agentRuns.createAndStream');
    // runs that wait: answered directly, and by runTools
    const toolVersion = await mine.agents.createVersion(agent.agent_id, {
      model: 'local/extractive',
      instructions: 'Answer.',
      tools: [LOOKUP_ORDER],
    });
    const waiting = await mine.agentRuns.create({ ...body, agent_version_id: toolVersion.agent_version_id, input: 'lookup_order 1' });
    await nextAction(mine, waiting.run_id);
    const action = await call('agentRuns.requiredAction', mine.agentRuns.requiredAction(waiting.run_id));
    await call(
      'agentRuns.submitToolOutputs',
      mine.agentRuns.submitToolOutputs(waiting.run_id, { tool_outputs: [{ tool_call_id: action.tool_calls[0]!.id, output: 'found' }] }),
    );
    const gated = await mine.agents.createVersion(agent.agent_id, {
      model: 'local/extractive',
      instructions: 'Answer.',
      tools: [{ type: 'knowledge_search', require_approval: 'always' }],
    });
    const gatedRun = await mine.agentRuns.create({ ...body, agent_version_id: gated.agent_version_id });
    const approval = await nextAction(mine, gatedRun.run_id);
    await call(
      'agentRuns.approveToolCalls',
      mine.agentRuns.approveToolCalls(gatedRun.run_id, { approvals: [{ tool_call_id: approval.tool_calls[0]!.id, approve: true }] }),
    );
    await call(
      'agentRuns.runTools',
      mine.agentRuns.runTools(
        { ...body, agent_version_id: toolVersion.agent_version_id, input: 'lookup_order 2' },
        { tools: { lookup_order: () => 'found' } },
      ),
    );
    // schedules
    const schedule = await call(
      'agentSchedules.create',
      mine.agentSchedules.create({ ...body, every_seconds: 3600, paused: true }, { idempotencyKey: `sdk-${randomUUID()}` }),
    );
    assert.equal(schedule.next_run_at, null);
    await call('agentSchedules.get', mine.agentSchedules.get(schedule.schedule_id));
    await call('agentSchedules.list', mine.agentSchedules.list({ limit: 5 }).firstPage());
    const resumed = await call('agentSchedules.update', mine.agentSchedules.update(schedule.schedule_id, { paused: false, cron: '0 9 * * MON-FRI' }));
    assert.ok(resumed.next_run_at && resumed.next_run_times.length > 0, JSON.stringify(resumed));
    await call('agentSchedules.trigger', mine.agentSchedules.trigger(schedule.schedule_id));
    const scheduledRuns = await until('the triggered run', async () => {
      const runs = await mine.agentSchedules.runs(schedule.schedule_id).all();
      return runs.length > 0 && runs;
    });
    called.push('agentSchedules.runs');
    await finish(mine, scheduledRuns[0]!.run_id);
    await call('agentSchedules.delete', mine.agentSchedules.delete(schedule.schedule_id));
    await assert.rejects(mine.agentSchedules.get(schedule.schedule_id), sdk.NotFoundError);
    // conversations
    const conversation = await call('conversations.create', mine.conversations.create({ org_id: org.org_id, metadata: { from: 'sdk' } }));
    await call('conversations.get', mine.conversations.get(conversation.conversation_id));
    await call('conversations.list', mine.conversations.list({ limit: 5 }).firstPage());
    const turn = await call('conversations.runs.create', mine.conversations.runs.create(conversation.conversation_id, body));
    await finish(mine, turn.run_id);
    await call('conversations.items', mine.conversations.items(conversation.conversation_id).all());
    await call('conversations.delete', mine.conversations.delete(conversation.conversation_id));
    // knowledge
    const document = await call(
      'knowledge.documents.create',
      mine.knowledge.documents.create({ org_id: org.org_id, title: 'SDK', content: 'The SDK retries creates safely.' }),
    );
    await call('knowledge.documents.get', mine.knowledge.documents.get(document.doc_id));
    await call('knowledge.documents.list', mine.knowledge.documents.list().all());
    await call('knowledge.search', mine.knowledge.search({ org_id: org.org_id, query: 'retries' }));
    await call('knowledge.query', mine.knowledge.query({ org_id: org.org_id, query: 'retries' }));
    await until('the document ingested', async () => (await mine.knowledge.documents.get(document.doc_id)).status !== 'processing', {
      timeoutMs: 60_000,
    });
    await call('knowledge.documents.delete', mine.knowledge.documents.delete(document.doc_id));
    // videos
    const video = await call('videos.create', mine.videos.create({ user_prompt: 'a kite' }));
    await call('videos.get', mine.videos.get([video.id]));
    await until('the video completed', async () => (await mine.videos.get([video.id]))[0]!.state === 'completed', {
      timeoutMs: 60_000,
      intervalMs: 200,
    });
    const extended = await call('videos.extend', mine.videos.extend(video.id, { user_prompt: 'and further' }));
    await call('videos.cancel', mine.videos.cancel(extended.id));
    // tokens
    await call('tokens.balance', mine.tokens.balance());
    await call('tokens.entries', mine.tokens.entries().all());
    // usage: every section, for a key with every scope
    const usage = await call('usage.get', mine.usage.get());
    assert.deepEqual(
      usage.windows.map((window) => window.window),
      ['24h', '30d'],
    );
    assert.ok(usage.windows[1]!.videos!.total >= 2 && usage.api_keys!.length >= 1, JSON.stringify(usage));
    // webhooks
    const endpoint = await call('webhooks.create', mine.webhooks.create({ org_id: org.org_id, url: `${receiver.baseUrl}/every-method` }));
    await call('webhooks.get', mine.webhooks.get(endpoint.endpoint_id));
    await call('webhooks.list', mine.webhooks.list().all());
    await call('webhooks.update', mine.webhooks.update(endpoint.endpoint_id, { description: 'from the SDK' }));
    await call('webhooks.rotateSecret', mine.webhooks.rotateSecret(endpoint.endpoint_id, {}));
    await call('webhooks.sendTestEvent', mine.webhooks.sendTestEvent(endpoint.endpoint_id));
    // The test event's delivery (a video of the calls above may finish meanwhile and be delivered too).
    const delivered = async () =>
      (await mine.webhooks.deliveries(endpoint.endpoint_id).all()).filter(
        (delivery) => delivery.event_type === 'webhook_endpoint.test' && delivery.status !== 'pending',
      );
    const deliveries = await until('the test event delivered', async () => {
      const done = await delivered();
      return done.length > 0 && done;
    });
    called.push('webhooks.deliveries');
    await call('webhooks.getDelivery', mine.webhooks.getDelivery(endpoint.endpoint_id, deliveries[0]!.delivery_id));
    await call('webhooks.retryDelivery', mine.webhooks.retryDelivery(endpoint.endpoint_id, deliveries[0]!.delivery_id));
    const filtered = await mine.webhooks
      .deliveries(endpoint.endpoint_id, { event_type: 'webhook_endpoint.test', event_id: deliveries[0]!.event_id })
      .all();
    assert.deepEqual(
      filtered.map((delivery) => delivery.delivery_id),
      [deliveries[0]!.delivery_id],
    );
    const recovered = await call(
      'webhooks.recover',
      mine.webhooks.recover(endpoint.endpoint_id, { since: new Date(Date.now() - 3_600_000).toISOString() }),
    );
    assert.equal(recovered.recovered, recovered.delivery_ids.length);
    await call('admin.disableWebhookEndpoints', admin.admin.disableWebhookEndpoints(org.org_id, { reason: 'sdk test' }));
    await call('webhooks.delete', mine.webhooks.delete(endpoint.endpoint_id));

    const expected = [
      ...[
        'createOrg',
        'listOrgs',
        'createApiKey',
        'listApiKeys',
        'updateApiKey',
        'rollApiKey',
        'revokeApiKey',
        'getLimits',
        'updateLimits',
        'grantTokens',
        'getModelPrices',
        'replaceModelPrices',
        'knowledgeIndex',
        'disableWebhookEndpoints',
      ].map((name) => `admin.${name}`),
      ...['whoami', 'create', 'list', 'roll', 'revoke'].map((name) => `apiKeys.${name}`),
      ...['put', 'list', 'check', 'remove'].map((name) => `modelCredentials.${name}`),
      ...['create', 'get', 'list', 'createVersion', 'listVersions', 'getVersion', 'modelProviders'].map((name) => `agents.${name}`),
      ...[
        'create',
        'get',
        'list',
        'cancel',
        'stream',
        'events',
        'usage',
        'createAndWait',
        'createAndStream',
        'requiredAction',
        'submitToolOutputs',
        'approveToolCalls',
        'runTools',
      ].map((name) => `agentRuns.${name}`),
      ...['create', 'get', 'list', 'update', 'trigger', 'delete', 'runs'].map((name) => `agentSchedules.${name}`),
      ...['create', 'get', 'list', 'runs.create', 'items', 'delete'].map((name) => `conversations.${name}`),
      ...['documents.create', 'documents.get', 'documents.list', 'search', 'query', 'documents.delete'].map((name) => `knowledge.${name}`),
      ...['create', 'get', 'extend', 'cancel'].map((name) => `videos.${name}`),
      ...['balance', 'entries'].map((name) => `tokens.${name}`),
      'usage.get',
      ...['create', 'get', 'list', 'update', 'rotateSecret', 'sendTestEvent', 'deliveries', 'getDelivery', 'retryDelivery', 'recover', 'delete'].map(
        (name) => `webhooks.${name}`,
      ),
    ];
    assert.deepEqual([...called].sort(), expected.sort());
  });
});
