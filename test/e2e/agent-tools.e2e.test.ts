import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Http, type HttpResponse } from '../support/http';
import { Stack } from '../support/stack';
import { WebhookReceiver } from '../support/webhook-receiver';
import { createKey, createTenant, createVersion, ingestDocument, waitForRun, type Tenant } from '../support/tenant';

const LOOKUP_ORDER = {
  type: 'function',
  name: 'lookup_order',
  description: 'Finds an order by its id.',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'], additionalProperties: false },
};

function expectError(response: HttpResponse, status: number, code: string, detail?: RegExp): void {
  assert.equal(response.status, status, response.text);
  assert.deepEqual(response.body, { error: code });
  if (detail) assert.match(response.headers.get('error-detail') ?? '', detail);
}

/** Function tools the customer runs, approvals of Pylon's own tools, and the durable wait between. */
describe('agent tools: required actions', () => {
  let stack: Stack;
  let http: Http;
  let receiver: WebhookReceiver;
  let tenant: Tenant;
  let toolsVersion: string;

  const startRun = async (input: string, versionId = toolsVersion, owner: Tenant = tenant) => {
    const created = await http.post('/api/v1/agent-runs', { token: owner.key, body: { org_id: owner.orgId, agent_version_id: versionId, input } });
    assert.equal(created.status, 200, created.text);
    return created.body.run_id as string;
  };
  /** Polls until the run waits for an action (or ends, which fails the test). */
  const waitForAction = async (runId: string, owner: Tenant = tenant) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const action = await http.get(`/api/v1/agent-runs/${runId}/required-action`, { token: owner.key });
      if (action.status === 200) return action.body;
      assert.equal(action.status, 404, action.text);
      const run = await http.get(`/api/v1/agent-runs/${runId}`, { token: owner.key });
      assert.ok(!['succeeded', 'failed'].includes(run.body.status), `the run ended ${run.body.status} (${run.body.error}) without waiting`);
      assert.ok(Date.now() < deadline, 'the run never waited');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const submit = (runId: string, body: unknown, owner: Tenant = tenant) =>
    http.post(`/api/v1/agent-runs/${runId}/tool-outputs`, { token: owner.key, body });
  const approve = (runId: string, body: unknown) => http.post(`/api/v1/agent-runs/${runId}/tool-approvals`, { token: tenant.key, body });

  before(async () => {
    receiver = await WebhookReceiver.start();
    stack = await Stack.start({ env: { WEBHOOK_ALLOWED_PRIVATE_TARGETS: 'loopback' } });
    http = new Http(stack.url);
    tenant = await createTenant(http);
    toolsVersion = await createVersion(http, tenant.key, tenant.agentId, { model: 'local/extractive', tools: [LOOKUP_ORDER] });
  });
  after(async () => {
    await stack?.stop();
    await receiver?.stop();
  });

  it('a version takes function tools, checked as JSON Schemas, and shows them with its action timeout', async () => {
    const version = await http.get(`/api/v1/agent-versions/${toolsVersion}`, { token: tenant.key });
    assert.equal(version.status, 200, version.text);
    assert.deepEqual(version.body.tools, [LOOKUP_ORDER]);
    assert.equal(version.body.action_timeout_seconds, 86_400);
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
    await bad(
      [{ ...LOOKUP_ORDER, parameters: { type: 'object', properties: { a: { type: 'strin' } } } }],
      /tools\.0\.parameters: is not a valid JSON Schema/,
    );
    await bad([{ ...LOOKUP_ORDER, parameters: { type: 'array' } }], /tools\.0\.parameters: must be a JSON Schema whose type is "object"/);
    await bad([{ ...LOOKUP_ORDER, name: 'no spaces allowed' }], /name must match/);
    await bad([LOOKUP_ORDER, LOOKUP_ORDER], /tools\.1: a tool named lookup_order is already in this version/);
    await bad([{ type: 'function', name: 'x' }], /tools\.0\.parameters: a function tool needs a JSON Schema/);
    await bad([{ type: 'knowledge_search', name: 'x' }], /tools\.0\.name: a knowledge_search tool takes no name/);
    await bad([{ ...LOOKUP_ORDER, require_approval: 'always' }], /tools\.0\.require_approval: a function tool takes no require_approval/);
    await bad(
      Array.from({ length: 33 }, (_, i) => ({ ...LOOKUP_ORDER, name: `tool_${i}` })),
      /tools/,
    );
    await bad([{ type: 'knowledge_search', require_approval: 'sometimes' }], /require_approval/);
  });

  it('a function-tool round trip: the run waits with requires_action, the outputs let it answer', async () => {
    const endpoint = await http.post('/api/v1/webhook-endpoints', {
      token: tenant.key,
      body: { org_id: tenant.orgId, url: `${receiver.baseUrl}/actions`, events: ['agent_run.requires_action'] },
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    const runId = await startRun('Please lookup_order for order 42.');
    const action = await waitForAction(runId);
    assert.equal(action.type, 'submit_tool_outputs');
    assert.equal(action.tool_calls.length, 1);
    const [call] = action.tool_calls;
    assert.equal(call.name, 'lookup_order');
    assert.deepEqual(JSON.parse(call.arguments), { order_id: '42' });
    assert.ok(new Date(action.expires_at).getTime() > Date.now() + 86_000_000);
    const waiting = await http.get(`/api/v1/agent-runs/${runId}`, { token: tenant.key });
    assert.equal(waiting.body.status, 'running');
    const events = await http.get(`/api/v1/agent-runs/${runId}/events`, { token: tenant.key });
    const requiresAction = events.body.data.find((event: { type: string }) => event.type === 'requires_action');
    assert.deepEqual(requiresAction.data, action);

    const output = JSON.stringify({ order_id: '42', status: 'shipped', carrier: 'DHL' });
    const answered = await submit(runId, { tool_outputs: [{ tool_call_id: call.id, output }] });
    assert.equal(answered.status, 200, answered.text);
    assert.equal(answered.body.run_id, runId);
    const { run } = await waitForRun(http, tenant.key, runId);
    assert.equal(run.status, 'succeeded', run.error);
    assert.match(run.output, /lookup_order returned: \{"order_id":"42","status":"shipped","carrier":"DHL"\}/);
    expectError(await http.get(`/api/v1/agent-runs/${runId}/required-action`, { token: tenant.key }), 404, 'not_found');

    const again = await submit(runId, { tool_outputs: [{ tool_call_id: call.id, output }] });
    assert.equal(again.status, 200, 'the same submission again answers the same');
    assert.equal(again.body.status, 'succeeded');
    expectError(await submit(runId, { tool_outputs: [{ tool_call_id: call.id, output: 'other' }] }), 409, 'run_not_waiting');

    const deadline = Date.now() + 15_000;
    while (!receiver.received.some((webhook) => webhook.path === '/actions')) {
      assert.ok(Date.now() < deadline, 'no agent_run.requires_action webhook');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const webhook = receiver.received.find((received) => received.path === '/actions')!;
    assert.equal(webhook.json.type, 'agent_run.requires_action');
    assert.equal(webhook.json.data.run_id, runId);
    assert.deepEqual(webhook.json.data.required_action, action);
  });

  it('wrong submissions are 400 naming the id, and the right one still lands after them', async () => {
    const runId = await startRun('lookup_order 7 please');
    const {
      tool_calls: [call],
    } = await waitForAction(runId);
    expectError(
      await submit(runId, { tool_outputs: [{ tool_call_id: 'nope', output: 'x' }] }),
      400,
      'invalid_request',
      /tool_outputs\.0\.tool_call_id: nope is not a call this run waits for/,
    );
    expectError(
      await submit(runId, {
        tool_outputs: [
          { tool_call_id: call.id, output: 'x' },
          { tool_call_id: call.id, output: 'y' },
        ],
      }),
      400,
      'invalid_request',
      /tool_outputs\.1\.tool_call_id: .* is answered twice/,
    );
    expectError(await submit(runId, { tool_outputs: [] }), 400, 'invalid_request');
    expectError(await submit(runId, { tool_outputs: [{ tool_call_id: call.id, output: 1 }] }), 400, 'invalid_request');
    expectError(await submit(runId, { tool_outputs: [{ tool_call_id: call.id, output: 'x' }], extra: 1 }), 400, 'invalid_request');
    expectError(
      await approve(runId, { approvals: [{ tool_call_id: call.id, approve: true }] }),
      409,
      'run_not_waiting',
      /waits for submit_tool_outputs/,
    );
    const reader = await createKey(http, tenant.orgId, ['runs:read']);
    expectError(
      await http.post(`/api/v1/agent-runs/${runId}/tool-outputs`, {
        token: reader,
        body: { tool_outputs: [{ tool_call_id: call.id, output: 'x' }] },
      }),
      403,
      'insufficient_scope',
    );
    assert.equal((await submit(runId, { tool_outputs: [{ tool_call_id: call.id, output: '{"status":"lost"}' }] })).status, 200);
    assert.equal((await waitForRun(http, tenant.key, runId)).run.status, 'succeeded');
  });

  it("another organisation's run is 404 on every action route, and a run that waits for nothing is 409", async () => {
    const runId = await startRun('lookup_order 8');
    const {
      tool_calls: [call],
    } = await waitForAction(runId);
    const other = await createTenant(http);
    expectError(await http.get(`/api/v1/agent-runs/${runId}/required-action`, { token: other.key }), 404, 'not_found');
    expectError(await submit(runId, { tool_outputs: [{ tool_call_id: call.id, output: 'x' }] }, other), 404, 'not_found');
    expectError(
      await http.post(`/api/v1/agent-runs/${runId}/tool-approvals`, {
        token: other.key,
        body: { approvals: [{ tool_call_id: call.id, approve: true }] },
      }),
      404,
      'not_found',
    );
    const plain = await startRun('What is Pylon?', tenant.versionId);
    await waitForRun(http, tenant.key, plain);
    expectError(await submit(plain, { tool_outputs: [{ tool_call_id: 'x', output: 'x' }] }), 409, 'run_not_waiting');
    expectError(await http.get(`/api/v1/agent-runs/00000000-0000-4000-8000-000000000000/required-action`, { token: tenant.key }), 404, 'not_found');
    const cancelled = await http.post(`/api/v1/agent-runs/${runId}/cancel`, { token: tenant.key });
    assert.equal(cancelled.status, 202, cancelled.text);
    const { run } = await waitForRun(http, tenant.key, runId, 10_000);
    assert.deepEqual([run.status, run.error], ['failed', 'cancelled']);
  });

  it('an action nobody answers expires: the run fails with "required action expired", and a late answer is 409', async () => {
    const shortVersion = await createVersion(http, tenant.key, tenant.agentId, {
      model: 'local/extractive',
      tools: [LOOKUP_ORDER],
      action_timeout_seconds: 2,
    });
    const runId = await startRun('lookup_order 9', shortVersion);
    const {
      tool_calls: [call],
    } = await waitForAction(runId);
    const { run } = await waitForRun(http, tenant.key, runId, 20_000);
    assert.deepEqual([run.status, run.error], ['failed', 'required action expired']);
    expectError(await submit(runId, { tool_outputs: [{ tool_call_id: call.id, output: 'late' }] }), 409, 'run_not_waiting');
  });

  it('approval of knowledge_search: a denied call is not run and the model hears why; an approved one runs', async () => {
    await ingestDocument(http, tenant, { title: 'Returns', content: 'Returns are accepted within 30 days of delivery with the receipt.' });
    const gated = await createVersion(http, tenant.key, tenant.agentId, {
      model: 'local/extractive',
      tools: [{ type: 'knowledge_search', require_approval: 'always' }],
    });
    const version = await http.get(`/api/v1/agent-versions/${gated}`, { token: tenant.key });
    assert.deepEqual(version.body.tools, [{ type: 'knowledge_search', match_count: 6, require_approval: 'always' }]);

    const denied = await startRun('How many days do I have for returns?', gated);
    const action = await waitForAction(denied);
    assert.equal(action.type, 'approve_tool_calls');
    assert.equal(action.tool_calls[0].name, 'knowledge_search');
    expectError(
      await submit(denied, { tool_outputs: [{ tool_call_id: action.tool_calls[0].id, output: 'x' }] }),
      409,
      'run_not_waiting',
      /waits for approve_tool_calls/,
    );
    const refused = await approve(denied, { approvals: [{ tool_call_id: action.tool_calls[0].id, approve: false, reason: 'not during the audit' }] });
    assert.equal(refused.status, 200, refused.text);
    const deniedRun = (await waitForRun(http, tenant.key, denied)).run;
    assert.equal(deniedRun.status, 'succeeded', deniedRun.error);
    assert.match(deniedRun.output, /The knowledge search did not run: the call was not approved: not during the audit/);
    assert.doesNotMatch(deniedRun.output, /30 days/);
    const log = await http.get(`/api/v1/agent-runs/${denied}/events`, { token: tenant.key });
    const types = log.body.data.map((event: { type: string }) => event.type);
    assert.ok(types.includes('tool_approval') && !types.includes('tool_result'), types.join());

    const allowed = await startRun('How many days do I have for returns?', gated);
    const pending = await waitForAction(allowed);
    assert.equal((await approve(allowed, { approvals: [{ tool_call_id: pending.tool_calls[0].id, approve: true }] })).status, 200);
    const allowedRun = (await waitForRun(http, tenant.key, allowed)).run;
    assert.equal(allowedRun.status, 'succeeded', allowedRun.error);
    assert.match(allowedRun.output, /30 days/);
  });
});
