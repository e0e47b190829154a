import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../../apps/embedded/dev-server';
import { sql } from '../support/db';
import { FakeOpenAi } from '../support/fake-openai';
import { Http, type HttpResponse } from '../support/http';
import { TestMcpServer } from '../support/mcp-server';
import { Stack } from '../support/stack';
import { createTenant, createVersion, waitForRun, type Tenant } from '../support/tenant';

/** The header a version sends its MCP server: a secret that must never come back in a response or a log line. */
const SECRET = `Bearer mcp-secret-${randomBytes(12).toString('hex')}`;
const SHOP_TOOLS = ['lookup_order', 'fail_always', 'slow_lookup', 'big_report'];

function expectError(response: HttpResponse, status: number, code: string, detail?: RegExp): void {
  assert.equal(response.status, status, response.text);
  assert.deepEqual(response.body, { error: code });
  if (detail) assert.match(response.headers.get('error-detail') ?? '', detail);
}

interface RunEvent {
  type: string;
  data: any;
}

/** MCP tools against a real MCP server (the SDK's McpServer over Streamable HTTP on loopback). */
describe('MCP tools', () => {
  let stack: Stack;
  let http: Http;
  let mcp: TestMcpServer;
  let openai: FakeOpenAi;
  let tenant: Tenant;
  let shopVersion: string;
  /** Every response body of the file, to prove none carries the secret. */
  const bodies: string[] = [];

  const shop = (fields: Record<string, unknown> = {}) => ({
    type: 'mcp',
    server_label: 'shop',
    server_url: mcp.url,
    allowed_tools: SHOP_TOOLS,
    headers: { Authorization: SECRET },
    ...fields,
  });
  const newVersion = async (tools: unknown[]) => {
    const created = await http.post(`/api/v1/agents/${tenant.agentId}/versions`, {
      token: tenant.key,
      body: { model: 'local/extractive', instructions: 'Answer briefly.', tools },
    });
    bodies.push(created.text);
    assert.equal(created.status, 201, created.text);
    return created.body.agent_version_id as string;
  };
  const startRun = async (input: string, versionId = shopVersion) => {
    const created = await http.post('/api/v1/agent-runs', { token: tenant.key, body: { org_id: tenant.orgId, agent_version_id: versionId, input } });
    assert.equal(created.status, 200, created.text);
    return created.body.run_id as string;
  };
  const finished = async (runId: string) => {
    const { run } = await waitForRun(http, tenant.key, runId, 90_000);
    bodies.push(JSON.stringify(run));
    return run;
  };
  const eventsOf = async (runId: string): Promise<RunEvent[]> => {
    const log = await http.get(`/api/v1/agent-runs/${runId}/events`, { token: tenant.key });
    assert.equal(log.status, 200, log.text);
    bodies.push(log.text);
    return log.body.data;
  };
  const waitForAction = async (runId: string) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const action = await http.get(`/api/v1/agent-runs/${runId}/required-action`, { token: tenant.key });
      if (action.status === 200) {
        bodies.push(action.text);
        return action.body;
      }
      assert.ok(Date.now() < deadline, 'the run never waited');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  before(async () => {
    mcp = await TestMcpServer.start();
    openai = await FakeOpenAi.start();
    // The operator setting the tests use: this one loopback address is allowed, every other private one is not.
    stack = await Stack.start({
      env: {
        WEBHOOK_ALLOWED_PRIVATE_TARGETS: '127.0.0.1',
        SECRETS_KEY: randomBytes(32).toString('base64'),
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: openai.baseUrl,
      },
    });
    http = new Http(stack.url);
    tenant = await createTenant(http);
    shopVersion = await newVersion([shop()]);
  });
  after(async () => {
    await stack?.stop();
    await mcp?.stop();
    await openai?.stop();
  });

  it('a version takes an mcp tool, shows its headers masked, and refuses bad ones naming the field', async () => {
    const version = await http.get(`/api/v1/agent-versions/${shopVersion}`, { token: tenant.key });
    bodies.push(version.text);
    assert.equal(version.status, 200, version.text);
    assert.deepEqual(version.body.tools, [
      {
        type: 'mcp',
        server_label: 'shop',
        server_url: mcp.url,
        allowed_tools: SHOP_TOOLS,
        require_approval: 'never',
        headers: { Authorization: '********' },
      },
    ]);
    const listed = await http.get(`/api/v1/agents/${tenant.agentId}/versions`, { token: tenant.key });
    bodies.push(listed.text);
    assert.equal(listed.status, 200);

    const bad = async (tools: unknown[], detail: RegExp) =>
      expectError(
        await http.post(`/api/v1/agents/${tenant.agentId}/versions`, {
          token: tenant.key,
          body: { model: 'local/extractive', instructions: 'x', tools },
        }),
        400,
        'invalid_request',
        detail,
      );
    await bad([shop({ server_label: 'has space' })], /tools\.0\.server_label: must match/);
    await bad([shop(), shop()], /tools\.1: a tool named shop is already in this version/);
    await bad([shop({ server_url: 'ftp://example.com/mcp' })], /tools\.0\.server_url: must be an http or https URL/);
    await bad([shop({ server_url: 'not a url' })], /tools\.0\.server_url: is not a URL/);
    await bad([shop({ server_url: 'https://user:pw@example.com/mcp' })], /tools\.0\.server_url: must not carry credentials/);
    await bad([{ type: 'mcp', server_url: mcp.url }], /tools\.0\.server_label: an mcp tool needs a server_label/);
    await bad([shop({ name: 'x' })], /tools\.0\.name: a mcp tool takes no name/);
    await bad([shop({ match_count: 3 })], /tools\.0\.match_count: a mcp tool takes no match_count/);
    await bad([shop({ allowed_tools: [] })], /allowed_tools/);
    await bad([shop({ allowed_tools: ['bad name'] })], /tools\.0\.allowed_tools: "bad name" is not a tool name/);
    await bad([shop({ headers: { 'Bad Header': 'x' } })], /tools\.0\.headers: "Bad Header" is not a header name/);
    await bad([shop({ headers: { Authorization: 42 } })], /headers/);
    await bad([shop({ headers: { Authorization: 'a\nb' } })], /tools\.0\.headers\.Authorization: must not contain control characters/);
    await bad([shop({ headers: { Host: 'evil' } })], /tools\.0\.headers: Host is set by Pylon's MCP client/);
    await bad([shop({ require_approval: 'sometimes' })], /require_approval/);
    await bad([shop({ unknown_field: 1 })], /unknown_field/);
  });

  it('at rest the headers are sealed, and the version stays immutable but for resealing them', async () => {
    const [row] = await sql<{ tools: Array<{ headers: Record<string, string> }> }>(`SELECT tools FROM agent_versions WHERE id = $1`, [shopVersion]);
    assert.match(row!.tools[0]!.headers.Authorization!, /^pylon-secret:v1:[0-9a-f]{8}:/);
    assert.ok(!JSON.stringify(row).includes(SECRET.slice('Bearer '.length)));
    await assert.rejects(sql(`UPDATE agent_versions SET instructions = 'changed' WHERE id = $1`, [shopVersion]), /immutable/);
    await assert.rejects(
      sql(`UPDATE agent_versions SET tools = jsonb_set(tools, '{0,server_url}', '"http://example.com/"') WHERE id = $1`, [shopVersion]),
      /immutable/,
    );
    await assert.rejects(
      sql(`UPDATE agent_versions SET tools = jsonb_set(tools, '{0,headers}', '{"X-Other":"v"}') WHERE id = $1`, [shopVersion]),
      /immutable/,
    );
  });

  it('a server without SECRETS_KEY refuses a version with headers, and takes one without', async () => {
    const replica = await stack.startApiReplica({ SECRETS_KEY: '' });
    try {
      const other = new Http(replica.url);
      const refused = await other.post(`/api/v1/agents/${tenant.agentId}/versions`, {
        token: tenant.key,
        body: { model: 'local/extractive', instructions: 'x', tools: [shop()] },
      });
      bodies.push(refused.text);
      expectError(refused, 400, 'invalid_request', /tools\.0\.headers: this server keeps no secrets .*SECRETS_KEY/);
      const plain = await other.post(`/api/v1/agents/${tenant.agentId}/versions`, {
        token: tenant.key,
        body: { model: 'local/extractive', instructions: 'x', tools: [shop({ headers: undefined })] },
      });
      assert.equal(plain.status, 201, plain.text);
    } finally {
      await replica.api.stop();
    }
  });

  it('lists the tools when the run starts and calls one: the offline model quotes its result', async () => {
    const runId = await startRun('Please use shop.lookup_order for order 42.');
    const run = await finished(runId);
    assert.equal(run.status, 'succeeded', run.error);
    assert.match(run.output, /shop\.lookup_order returned: order 42: shipped by DHL/);
    const events = await eventsOf(runId);
    const listing = events.find((event) => event.type === 'mcp_list_tools');
    assert.deepEqual(listing?.data, { server_label: 'shop', tools: SHOP_TOOLS });
    const call = events.find((event) => event.type === 'tool_call');
    assert.equal(call?.data.name, 'shop.lookup_order');
    assert.deepEqual(JSON.parse(call?.data.arguments), { order_id: '42' });
    const result = events.find((event) => event.type === 'tool_result');
    assert.deepEqual(result?.data, { call_id: call?.data.call_id, name: 'shop.lookup_order', output: 'order 42: shipped by DHL' });
    const types = events.map((event) => event.type);
    assert.ok(types.indexOf('mcp_list_tools') < types.indexOf('tool_call'), types.join());
    // The server got the header the version keeps sealed: opened for the request only.
    const seen = mcp.callsOf('lookup_order').at(-1)!;
    assert.equal(seen.headers.authorization, SECRET);
  });

  it('the offline model also calls an MCP tool the input names without its label', async () => {
    const runId = await startRun('Please use lookup_order for order 43.');
    const run = await finished(runId);
    assert.equal(run.status, 'succeeded', run.error);
    assert.match(run.output, /shop\.lookup_order returned: order 43: shipped by DHL/);
    const calls = (await eventsOf(runId)).filter((event) => event.type === 'tool_call');
    assert.deepEqual(
      calls.map((call) => [call.data.name, JSON.parse(call.data.arguments)]),
      [['shop.lookup_order', { order_id: '43' }]],
    );
  });

  it('OpenAI sees <server_label>__<tool> (no dot in its function names); the run and its log keep shop.lookup_order', async () => {
    const created = await http.post(`/api/v1/agents/${tenant.agentId}/versions`, {
      token: tenant.key,
      body: { model: 'openai/gpt-4o-mini', instructions: 'Answer briefly.', tools: [shop()] },
    });
    assert.equal(created.status, 201, created.text);
    const before = openai.requests.length;
    openai.enqueue(
      { toolCalls: [{ id: 'call_openai_1', name: 'shop__lookup_order', arguments: '{"order_id":"8"}' }] },
      { content: 'Order 8 is shipped.' },
    );
    const runId = await startRun('Where is order 8?', created.body.agent_version_id);
    const run = await finished(runId);
    assert.equal(run.status, 'succeeded', run.error);
    assert.equal(run.output, 'Order 8 is shipped.');
    const [first, second] = openai.requests.slice(before).map((request) => request.body);
    assert.deepEqual(
      first.tools.map((tool: { name: string }) => tool.name),
      SHOP_TOOLS.map((tool) => `shop__${tool}`),
    );
    const wireCall = second.input.find((item: { type: string }) => item.type === 'function_call');
    assert.equal(wireCall.name, 'shop__lookup_order');
    assert.deepEqual(second.input.at(-1), { type: 'function_call_output', call_id: 'call_openai_1', output: 'order 8: shipped by DHL' });
    const call = (await eventsOf(runId)).find((event) => event.type === 'tool_call');
    assert.equal(call?.data.name, 'shop.lookup_order');
  });

  it('a server with the older HTTP+SSE transport only: the client falls back to it', async () => {
    const version = await newVersion([{ type: 'mcp', server_label: 'legacy', server_url: mcp.sseUrl, allowed_tools: ['lookup_order'] }]);
    const runId = await startRun('Please use legacy.lookup_order for order 31.', version);
    const run = await finished(runId);
    assert.equal(run.status, 'succeeded', run.error);
    assert.match(run.output, /legacy\.lookup_order returned: order 31: shipped by DHL/);
    const listing = (await eventsOf(runId)).find((event) => event.type === 'mcp_list_tools');
    assert.deepEqual(listing?.data, { server_label: 'legacy', tools: ['lookup_order'] });
  });

  it('a tool that errors: its error is handed to the model as text and the run still answers', async () => {
    const runId = await startRun('Try shop.fail_always now.');
    const run = await finished(runId);
    assert.equal(run.status, 'succeeded', run.error);
    assert.match(run.output, /shop\.fail_always returned: \{"error":".*the warehouse database is offline/);
    const result = (await eventsOf(runId)).find((event) => event.type === 'tool_result');
    assert.match(result?.data.error, /the warehouse database is offline/);
  });

  it('a long result is cut to 16 000 characters, saying so', async () => {
    const runId = await startRun('Run shop.big_report please.');
    const run = await finished(runId);
    assert.equal(run.status, 'succeeded', run.error);
    const result = (await eventsOf(runId)).find((event) => event.type === 'tool_result');
    assert.ok(result?.data.output.startsWith('R'.repeat(16_000)));
    assert.match(result?.data.output, /\[cut: the tool returned 50000 characters; the first 16000 are shown\]$/);
    assert.ok(result?.data.output.length < 16_100);
  });

  it('a tool outside allowed_tools is not offered, and a model that calls it anyway is told so: the server never gets the call', async () => {
    const created = await http.post(`/api/v1/agents/${tenant.agentId}/versions`, {
      token: tenant.key,
      body: { model: 'openai/gpt-4o-mini', instructions: 'Answer briefly.', tools: [shop()] },
    });
    assert.equal(created.status, 201, created.text);
    const requestsBefore = openai.requests.length;
    const callsBefore = mcp.calls.length;
    // secret_tool is on the server but not in allowed_tools. The model asks for it by its own name (as an
    // OpenAI-compatible server may answer) and in the form OpenAI would give it, which no function offered has.
    openai.enqueue(
      {
        toolCalls: [
          { id: 'call_secret_own', name: 'shop.secret_tool', arguments: '{}' },
          { id: 'call_secret_wire', name: 'shop__secret_tool', arguments: '{}' },
        ],
      },
      { content: 'That tool is not mine to use.' },
    );
    const runId = await startRun('Please use shop.secret_tool.', created.body.agent_version_id);
    const run = await finished(runId);
    assert.equal(run.status, 'succeeded', run.error);
    assert.equal(run.output, 'That tool is not mine to use.');

    const [first, second, ...more] = openai.requests.slice(requestsBefore).map((request) => request.body);
    assert.equal(more.length, 0, 'two model turns');
    assert.deepEqual(
      first.tools.map((tool: { name: string }) => tool.name),
      SHOP_TOOLS.map((tool) => `shop__${tool}`),
      'secret_tool is not offered',
    );
    const ownRefusal = 'shop.secret_tool is not one of the tools this agent may call';
    const wireRefusal = 'unknown tool shop__secret_tool';
    assert.deepEqual(
      second.input.filter((item: { type: string }) => item.type === 'function_call_output'),
      [
        { type: 'function_call_output', call_id: 'call_secret_own', output: JSON.stringify({ error: ownRefusal }) },
        { type: 'function_call_output', call_id: 'call_secret_wire', output: JSON.stringify({ error: wireRefusal }) },
      ],
    );

    const events = await eventsOf(runId);
    assert.deepEqual(
      events.filter((event) => event.type === 'tool_call').map((event) => event.data.name),
      ['shop.secret_tool', 'shop__secret_tool'],
    );
    assert.deepEqual(
      events.filter((event) => event.type === 'tool_result').map((event) => event.data),
      [
        { call_id: 'call_secret_own', name: 'shop.secret_tool', error: ownRefusal },
        { call_id: 'call_secret_wire', name: 'shop__secret_tool', error: wireRefusal },
      ],
    );
    assert.equal(mcp.callsOf('secret_tool').length, 0, 'the server never got the call');
    assert.equal(mcp.calls.length, callsBefore, 'the server got no call at all');
  });

  it('a server that is down: the listing error is an event of the run, which answers without its tools', async () => {
    const closedPort = await freePort();
    const version = await newVersion([{ type: 'mcp', server_label: 'down', server_url: `http://127.0.0.1:${closedPort}/mcp` }]);
    const runId = await startRun('Please use down.lookup_order for order 7.', version);
    const run = await finished(runId);
    assert.equal(run.status, 'succeeded', run.error);
    const events = await eventsOf(runId);
    const listing = events.find((event) => event.type === 'mcp_list_tools');
    assert.equal(listing?.data.server_label, 'down');
    assert.deepEqual(listing?.data.tools, []);
    assert.match(listing?.data.error, /ECONNREFUSED|fetch failed|connect/i);
    assert.ok(!events.some((event) => event.type === 'tool_call'));
  });

  it('private targets: a literal address the operator does not list is refused when the version is made, as a webhook receiver is', async () => {
    const port = new URL(mcp.url).port;
    for (const url of ['http://169.254.169.254/mcp', `http://127.0.0.2:${port}/mcp`, 'http://10.0.0.1/mcp', 'http://[::1]/mcp']) {
      const refused = await http.post(`/api/v1/agents/${tenant.agentId}/versions`, {
        token: tenant.key,
        body: { model: 'local/extractive', instructions: 'x', tools: [shop({ server_url: url, headers: undefined })] },
      });
      expectError(
        refused,
        400,
        'invalid_request',
        /^tools\.0\.server_url points at a non-public address \(.+\) that WEBHOOK_ALLOWED_PRIVATE_TARGETS does not list$/,
      );
    }
    const sameAsWebhooks = await http.post('/api/v1/webhook-endpoints', {
      token: tenant.key,
      body: { org_id: tenant.orgId, url: 'http://169.254.169.254/mcp' },
    });
    expectError(
      sameAsWebhooks,
      400,
      'invalid_request',
      /non-public address \(169\.254\.169\.254\) that WEBHOOK_ALLOWED_PRIVATE_TARGETS does not list/,
    );
  });

  it('private targets: each connection is checked too, so a version made under a wider setting reaches nothing the worker refuses', async () => {
    const port = new URL(mcp.url).port;
    // An API whose operator allowed every IPv4 address: a metadata address is refused all the same.
    const wider = await stack.startApiReplica({ WEBHOOK_ALLOWED_PRIVATE_TARGETS: '0.0.0.0/0' });
    let version: string;
    try {
      const create = (tools: unknown[]) =>
        new Http(wider.url).post(`/api/v1/agents/${tenant.agentId}/versions`, {
          token: tenant.key,
          body: { model: 'local/extractive', instructions: 'Answer briefly.', tools },
        });
      const loopbackAndPrivate = [
        { type: 'mcp', server_label: 'other_loopback', server_url: `http://127.0.0.2:${port}/mcp` },
        { type: 'mcp', server_label: 'private', server_url: 'http://10.255.255.1/mcp' },
      ];
      expectError(
        await create([...loopbackAndPrivate, { type: 'mcp', server_label: 'metadata', server_url: 'http://169.254.169.254/mcp' }]),
        400,
        'invalid_request',
        /^tools\.2\.server_url points at a non-public address \(169\.254\.169\.254\)/,
      );
      const created = await create(loopbackAndPrivate);
      assert.equal(created.status, 201, created.text);
      version = created.body.agent_version_id as string;
    } finally {
      await wider.api.stop();
    }
    const callsBefore = mcp.calls.length;
    const requestsBefore = mcp.requestHeaders.length;
    const runId = await startRun('Please use other_loopback.lookup_order for order 1.', version);
    const run = await finished(runId);
    assert.equal(run.status, 'succeeded', run.error);
    const listings = (await eventsOf(runId)).filter((event) => event.type === 'mcp_list_tools');
    assert.deepEqual(
      listings.map((event) => event.data.server_label),
      ['other_loopback', 'private'],
    );
    for (const listing of listings) assert.match(listing.data.error, /non-public address/, JSON.stringify(listing.data));
    assert.equal(mcp.calls.length, callsBefore);
    assert.equal(mcp.requestHeaders.length, requestsBefore, 'no request reached the server');
  });

  it('require_approval always: an approved call runs, a denied one does not and the model is told why', async () => {
    const gated = await newVersion([shop({ require_approval: 'always' })]);
    const before = mcp.callsOf('lookup_order').length;

    const denied = await startRun('Please use shop.lookup_order for order 5.', gated);
    const action = await waitForAction(denied);
    assert.equal(action.type, 'approve_tool_calls');
    assert.equal(action.tool_calls[0].name, 'shop.lookup_order');
    const refused = await http.post(`/api/v1/agent-runs/${denied}/tool-approvals`, {
      token: tenant.key,
      body: { approvals: [{ tool_call_id: action.tool_calls[0].id, approve: false, reason: 'not during the audit' }] },
    });
    assert.equal(refused.status, 200, refused.text);
    const deniedRun = await finished(denied);
    assert.equal(deniedRun.status, 'succeeded', deniedRun.error);
    assert.match(deniedRun.output, /shop\.lookup_order returned: \{"error":"the call was not approved: not during the audit"\}/);
    assert.equal(mcp.callsOf('lookup_order').length, before);

    const approved = await startRun('Please use shop.lookup_order for order 6.', gated);
    const pending = await waitForAction(approved);
    const yes = await http.post(`/api/v1/agent-runs/${approved}/tool-approvals`, {
      token: tenant.key,
      body: { approvals: [{ tool_call_id: pending.tool_calls[0].id, approve: true }] },
    });
    assert.equal(yes.status, 200, yes.text);
    const approvedRun = await finished(approved);
    assert.equal(approvedRun.status, 'succeeded', approvedRun.error);
    assert.match(approvedRun.output, /shop\.lookup_order returned: order 6: shipped by DHL/);
    assert.equal(mcp.callsOf('lookup_order').length, before + 1);
  });

  it('a worker killed mid-call: the call is retried on the restarted worker and the run answers once', async () => {
    mcp.slowMs = 4_000;
    const runId = await startRun('Please use shop.slow_lookup for order 77.');
    const deadline = Date.now() + 30_000;
    while (mcp.callsOf('slow_lookup').length === 0) {
      assert.ok(Date.now() < deadline, 'the tool was never called');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await stack.worker.kill();
    mcp.slowMs = 100;
    await stack.startWorker();
    const run = await finished(runId);
    assert.equal(run.status, 'succeeded', run.error);
    assert.match(run.output, /shop\.slow_lookup returned: order 77: found slowly/);
    assert.ok(mcp.callsOf('slow_lookup').length >= 2, 'the call was made again after the worker died');
    const events = await eventsOf(runId);
    const count = (type: string) => events.filter((event) => event.type === type).length;
    assert.deepEqual([count('tool_call'), count('tool_result'), count('succeeded')], [1, 1, 1]);
  });

  it('key rotation: the new key with the old one as previous, `secrets reseal`, and runs go on under the new key alone', async () => {
    const newKey = randomBytes(32).toString('base64');
    const replica = await stack.startApiReplica({ SECRETS_KEY: newKey, SECRETS_PREVIOUS_KEYS: stack.env.SECRETS_KEY! });
    try {
      const admin = new Http(replica.url);
      const resealed = await admin.post(`/admin/v1/orgs/${tenant.orgId}/secrets/reseal`, { token: stack.env.ADMIN_TOKEN! });
      assert.equal(resealed.status, 200, resealed.text);
      assert.ok(resealed.body.resealed_versions >= 2, resealed.text);
      const again = await admin.post(`/admin/v1/orgs/${tenant.orgId}/secrets/reseal`, { token: stack.env.ADMIN_TOKEN! });
      assert.deepEqual(again.body, {
        resealed_versions: 0,
        current_versions: resealed.body.resealed_versions,
        resealed_model_credentials: 0,
        current_model_credentials: 0,
      });
    } finally {
      await replica.api.stop();
    }
    // The workers now know the new key only: what was resealed opens, and the server gets the same header.
    stack.env.SECRETS_KEY = newKey;
    await stack.startWorker();
    const runId = await startRun('Please use shop.lookup_order for order 99.');
    const run = await finished(runId);
    assert.equal(run.status, 'succeeded', run.error);
    assert.match(run.output, /shop\.lookup_order returned: order 99: shipped by DHL/);
    assert.equal(mcp.callsOf('lookup_order').at(-1)!.headers.authorization, SECRET);
  });

  it('the headers are in no response and no log line', async () => {
    const secretValue = SECRET.slice('Bearer '.length);
    for (const body of bodies) assert.ok(!body.includes(secretValue), `a response carries the secret: ${body.slice(0, 200)}`);
    const logs = [stack.api.log(), stack.worker.log()];
    const dir = process.env.PYLON_TEST_LOG_DIR;
    if (dir && existsSync(dir)) for (const file of readdirSync(dir)) logs.push(readFileSync(join(dir, file), 'utf8'));
    assert.ok(logs.join('').length > 0);
    for (const log of logs) assert.ok(!log.includes(secretValue), 'a log line carries the secret');
  });
});
