import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeOpenAi } from '../support/fake-openai';
import { Http, type HttpResponse } from '../support/http';
import { Stack } from '../support/stack';
import { createTenant, createVersion, waitForRun, type Tenant } from '../support/tenant';

const TICKET = {
  type: 'json_schema',
  name: 'ticket_summary',
  schema: {
    type: 'object',
    properties: {
      summary: { type: 'string' },
      priority: { enum: ['low', 'normal', 'high'] },
      customer_id: { type: 'integer' },
      answered: { type: 'boolean' },
    },
    required: ['summary', 'priority', 'customer_id', 'answered'],
    additionalProperties: false,
  },
};

function expectError(response: HttpResponse, status: number, code: string, detail: RegExp): void {
  assert.equal(response.status, status, response.text);
  assert.deepEqual(response.body, { error: code });
  assert.match(response.headers.get('error-detail') ?? '', detail);
}

/** Answers a program can parse: a version's JSON Schema, checked on every answer, with one repair turn. */
describe('structured outputs', () => {
  let stack: Stack;
  let http: Http;
  let fake: FakeOpenAi;
  let tenant: Tenant;

  const run = async (versionId: string, input: string) => {
    const created = await http.post('/api/v1/agent-runs', { token: tenant.key, body: { org_id: tenant.orgId, agent_version_id: versionId, input } });
    assert.equal(created.status, 200, created.text);
    const { run: final } = await waitForRun(http, tenant.key, created.body.run_id);
    const events = await http.get(`/api/v1/agent-runs/${final.run_id}/events?limit=1000`, { token: tenant.key });
    assert.equal(events.status, 200, events.text);
    return { run: final, events: events.body.data as Array<{ type: string; data: any }> };
  };
  const versionWith = (fields: Record<string, unknown>) =>
    http.post(`/api/v1/agents/${tenant.agentId}/versions`, { token: tenant.key, body: { instructions: 'Summarise the ticket.', ...fields } });

  before(async () => {
    fake = await FakeOpenAi.start();
    stack = await Stack.start({ env: { OPENAI_API_KEY: 'sk-test-fake', OPENAI_BASE_URL: fake.baseUrl } });
    http = new Http(stack.url);
    tenant = await createTenant(http);
  });
  after(async () => {
    await stack?.stop();
    await fake?.stop();
  });

  it('the offline model fills a flat schema from its answer; output is the JSON text, the succeeded event carries it parsed', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'local/extractive', response_format: TICKET });
    const version = await http.get(`/api/v1/agent-versions/${versionId}`, { token: tenant.key });
    assert.deepEqual(version.body.response_format, { ...TICKET, strict: true });

    const { run: final, events } = await run(versionId, 'Customer 4711 cannot log in since Monday. priority: high');
    assert.equal(final.status, 'succeeded', final.error);
    const parsed = JSON.parse(final.output);
    assert.equal(parsed.priority, 'high');
    assert.equal(parsed.customer_id, 4711);
    assert.equal(parsed.answered, false, 'nothing to answer from: no tools, no history');
    assert.match(parsed.summary, /nothing to answer/);
    const succeeded = events.find((event) => event.type === 'succeeded');
    assert.deepEqual(succeeded?.data.output_parsed, parsed);
    assert.equal(events.filter((event) => event.type === 'output_delta').length, 0, 'a structured answer is shown once checked, whole');
  });

  it('an offline model leaves out what it cannot fill, and the schema check fails the run naming the property', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'local/extractive', response_format: TICKET });
    const { run: final, events } = await run(versionId, 'Nobody said which customer this is.');
    assert.equal(final.status, 'failed');
    assert.equal(final.error, "output did not match the schema: / must have required property 'customer_id'");
    assert.equal(events.filter((event) => event.type === 'output_repair').length, 1);
  });

  it('refuses a schema that is no JSON Schema, a bad name, and one the offline model cannot fill, naming the fault', async () => {
    expectError(
      await versionWith({
        model: 'local/extractive',
        response_format: { ...TICKET, schema: { type: 'object', properties: { a: { type: 'strin' } } } },
      }),
      400,
      'invalid_request',
      /response_format\.schema: is not a valid JSON Schema/,
    );
    expectError(
      await versionWith({ model: 'local/extractive', response_format: { ...TICKET, name: 'has spaces' } }),
      400,
      'invalid_request',
      /name must match/,
    );
    expectError(
      await versionWith({
        model: 'local/extractive',
        response_format: { ...TICKET, schema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } } },
      }),
      400,
      'invalid_request',
      /response_format\.schema: local\/\* models answer only object schemas of strings, numbers, booleans and enums: property tags is an array/,
    );
    expectError(await versionWith({ model: 'local/extractive', response_format: { ...TICKET, extra: 1 } }), 400, 'invalid_request', /extra/);
    // OpenAI takes nested schemas: only the offline models are limited.
    const nested = await versionWith({
      model: 'openai/gpt-4o-mini',
      response_format: { ...TICKET, schema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } } },
    });
    assert.equal(nested.status, 201, nested.text);
  });

  it('OpenAI gets the schema natively; a matching answer succeeds with the provider’s token counts, cached and reasoning ones too', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'openai/gpt-4o-mini', response_format: TICKET });
    const answer = { summary: 'Login fails', priority: 'high', customer_id: 4711, answered: true };
    fake.enqueue({ content: JSON.stringify(answer), usage: { prompt_tokens: 120, completion_tokens: 30, cached_tokens: 100, reasoning_tokens: 12 } });
    const before = fake.requests.length;
    const { run: final } = await run(versionId, 'Customer 4711 cannot log in.');
    assert.equal(final.status, 'succeeded', final.error);
    assert.deepEqual(JSON.parse(final.output), answer);
    const request = fake.requests[before]!.body;
    assert.deepEqual(request.text, { format: { type: 'json_schema', name: 'ticket_summary', schema: TICKET.schema, strict: true } });
    const usage = await http.get(`/api/v1/agent-runs/${final.run_id}/usage`, { token: tenant.key });
    assert.equal(usage.status, 200, usage.text);
    assert.deepEqual(
      usage.body.turns.map((turn: any) => [turn.input_tokens, turn.output_tokens, turn.cached_input_tokens, turn.reasoning_tokens, turn.counted_by]),
      [[120, 30, 100, 12, 'provider']],
    );
  });

  it('an answer that does not match gets one repair turn that says why', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'openai/gpt-4o-mini', response_format: TICKET });
    const repaired = { summary: 'Login fails', priority: 'normal', customer_id: 7, answered: true };
    fake.enqueue({ content: '{"summary": "Login fails", "priority": "urgent"}' }, { content: JSON.stringify(repaired) });
    const before = fake.requests.length;
    const { run: final, events } = await run(versionId, 'Customer 7 cannot log in.');
    assert.equal(final.status, 'succeeded', final.error);
    assert.deepEqual(JSON.parse(final.output), repaired);
    const repair = fake.requests[before + 1]!.body.input as Array<{ role: string; content: string }>;
    assert.equal(repair.at(-2)!.role, 'assistant');
    assert.equal(repair.at(-2)!.content, '{"summary": "Login fails", "priority": "urgent"}');
    assert.match(repair.at(-1)!.content, /does not match the JSON schema ticket_summary: \/ must have required property 'customer_id'/);
    assert.deepEqual(
      events.filter((event) => event.type === 'output_repair').map((event) => event.data),
      [{ fault: "/ must have required property 'customer_id'" }],
    );
    const usage = await http.get(`/api/v1/agent-runs/${final.run_id}/usage`, { token: tenant.key });
    assert.equal(usage.body.total.turns, 2, 'the repair turn is a model turn too');
  });

  it('an answer still wrong after the repair turn fails the run with the path and the message', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'openai/gpt-4o-mini', response_format: TICKET });
    fake.enqueue(
      { content: 'Sure! The ticket is about a login.' },
      { content: '{"summary": 42, "priority": "low", "customer_id": 1, "answered": true}' },
    );
    const { run: final } = await run(versionId, 'Customer 1 cannot log in.');
    assert.equal(final.status, 'failed');
    assert.equal(final.error, 'output did not match the schema: /summary must be string');
  });
});
