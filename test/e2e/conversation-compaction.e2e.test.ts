import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeAnthropic } from '../support/fake-anthropic';
import { FakeOpenAi } from '../support/fake-openai';
import { Http } from '../support/http';
import { Stack } from '../support/stack';
import { createTenant, createVersion, waitForRun, type Tenant } from '../support/tenant';

const FACT = 'My account number is 4711-22.';
const SUMMARISING = 'You summarise the beginning of a conversation';

/**
 * Long conversations keep their beginning: when a history no longer fits the model's context, its oldest turns
 * are folded into a summary (a `compaction` item), and later turns see the summary instead of forgetting them.
 * Offline (local/extractive, 8 000 tokens of context) over 200 turns, and on a fake OpenAI-compatible provider
 * that makes the summary when asked.
 */
describe('conversation compaction', () => {
  let compat: FakeOpenAi;
  let anthropic: FakeAnthropic;
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;

  before(async () => {
    [compat, anthropic] = await Promise.all([FakeOpenAi.start(), FakeAnthropic.start()]);
    stack = await Stack.start({
      env: {
        MODEL_PROVIDERS: JSON.stringify([{ name: 'compat', base_url: compat.baseUrl }]),
        ANTHROPIC_API_KEY: 'sk-ant-operator',
        ANTHROPIC_BASE_URL: anthropic.baseUrl,
      },
    });
    http = new Http(stack.url);
    tenant = await createTenant(http);
  });
  after(async () => {
    await stack?.stop();
    await compat?.stop();
    await anthropic?.close();
  });

  const conversation = async () => {
    const created = await http.post('/api/v1/conversations', { token: tenant.key, body: { org_id: tenant.orgId } });
    assert.equal(created.status, 201, created.text);
    return created.body.conversation_id as string;
  };
  const turn = async (conversationId: string, versionId: string, input: string) => {
    const created = await http.post(`/api/v1/conversations/${conversationId}/runs`, {
      token: tenant.key,
      body: { org_id: tenant.orgId, agent_version_id: versionId, input },
    });
    assert.equal(created.status, 200, created.text);
    const { run } = await waitForRun(http, tenant.key, created.body.run_id);
    assert.equal(run.status, 'succeeded', run.error);
    return run;
  };
  const historyEvent = async (runId: string) => {
    const events = await http.get(`/api/v1/agent-runs/${runId}/events`, { token: tenant.key });
    return events.body.data.find((event: { type: string }) => event.type === 'history').data;
  };
  const items = async (conversationId: string) => {
    const all: Array<{ type: string; text: string | null; run_id: string }> = [];
    for (let cursor: string | null = null, first = true; first || cursor; first = false) {
      const page: { status: number; text: string; body: any } = await http.get(
        `/api/v1/conversations/${conversationId}/items?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        {
          token: tenant.key,
        },
      );
      assert.equal(page.status, 200, page.text);
      all.push(...page.body.data);
      cursor = page.body.data.length > 0 ? page.body.next_cursor : null;
    }
    return all;
  };

  it('offline, 200 turns: compaction items appear, and turn 200 still answers a fact from turn 1', async () => {
    const conversationId = await conversation();
    await turn(conversationId, tenant.versionId, FACT);
    for (let n = 2; n < 200; n++) await turn(conversationId, tenant.versionId, `Note ${n}: the sky over harbour ${n} was clear at dawn.`);
    const last = await turn(conversationId, tenant.versionId, 'What is my account number?');
    assert.match(last.output, /4711-22/);
    const seen = await items(conversationId);
    const summaries = seen.filter((item) => item.type === 'compaction');
    assert.ok(summaries.length >= 1, 'the history was compacted');
    assert.ok(
      summaries.every((summary) => summary.text?.includes(FACT)),
      'every summary keeps the fact',
    );
    const history = await historyEvent(summaries[0]!.run_id);
    assert.ok(history.compacted > 0 && history.tokens_counted_by === 'estimate', JSON.stringify(history));
  });

  it("a provider that counts tokens: near its room the history is budgeted by the provider's own count, which compacts what the estimate would have kept", async () => {
    // Claude's 200 000 tokens less a 128 000-token answer leave 72 000 for the prompt; the provider is asked to count once the
    // estimate passes half of it. This provider counts four times the estimate, so the history no longer fits its 18 000.
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'anthropic/claude-sonnet-4-5', max_output_tokens: 128_000 });
    const counts = anthropic.tokenCounts.length;
    anthropic.countTokens = (body) => 4 * Math.ceil(JSON.stringify([body.system ?? '', body.messages, body.tools ?? []]).length / 4);
    try {
      const conversationId = await conversation();
      const padding = ' Filler.'.repeat(5_000);
      const early = [await turn(conversationId, versionId, `${FACT}${padding}`)];
      for (let n = 2; n <= 3; n++) early.push(await turn(conversationId, versionId, `Note ${n}.${padding}`));
      for (const run of early) assert.equal((await historyEvent(run.run_id)).tokens_counted_by, 'estimate', 'far from the room: no count asked');
      assert.equal(anthropic.tokenCounts.length, counts);
      let counted: any;
      for (let n = 4; n <= 6 && !counted?.compacted; n++)
        counted = await historyEvent((await turn(conversationId, versionId, `Note ${n}.${padding}`)).run_id);
      assert.equal(counted.tokens_counted_by, 'provider', JSON.stringify(counted));
      assert.ok(counted.compacted > 0, `the provider's count compacted the history: ${JSON.stringify(counted)}`);
      const asked = anthropic.tokenCounts.at(-1)!.body;
      assert.equal(asked.model, 'claude-sonnet-4-5');
      assert.ok(JSON.stringify(asked.messages).includes(FACT), 'it counted the whole history');
      assert.ok((await items(conversationId)).some((item) => item.type === 'compaction'));
    } finally {
      anthropic.countTokens = (body) => Math.ceil(JSON.stringify([body.system ?? '', body.messages, body.tools ?? []]).length / 4);
    }
  });

  it('on a provider: the version’s model writes the summary (a metered turn), and the later turns send it', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'compat/small-model' });
    const summary = `- The user's account number is 4711-22.`;
    compat.replyTo = (body) => (JSON.stringify(body.messages ?? body.input).includes(SUMMARISING) ? { content: summary } : { content: 'Noted.' });
    try {
      const conversationId = await conversation();
      const padding = ' Filler.'.repeat(500);
      await turn(conversationId, versionId, `${FACT}${padding}`);
      for (let n = 2; n <= 14; n++) await turn(conversationId, versionId, `Note ${n}.${padding}`);
      await turn(conversationId, versionId, 'What is my account number?');
      const asked = JSON.stringify(compat.requests.at(-1)!.body.messages);
      assert.ok(!asked.includes(SUMMARISING) && asked.includes('4711-22'), 'the last turn sent the summary');
      const summaries = (await items(conversationId)).filter((item) => item.type === 'compaction');
      assert.ok(summaries.length >= 1);
      assert.equal(summaries[0]!.text, summary);
      const usage = await http.get(`/api/v1/agent-runs/${summaries[0]!.run_id}/usage`, { token: tenant.key });
      assert.deepEqual(
        usage.body.turns.map((row: { model: string }) => row.model),
        ['compat/small-model', 'compat/small-model'],
        'the summary and the answer',
      );
    } finally {
      compat.replyTo = undefined;
    }
  });

  it('compaction_model writes the summary for another model: an offline model answers from what a provider summarised', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'local/extractive', compaction_model: 'compat/summariser' });
    const version = await http.get(`/api/v1/agent-versions/${versionId}`, { token: tenant.key });
    assert.equal(version.body.compaction_model, 'compat/summariser');
    const summary = `- The user's account number is 4711-22.`;
    compat.replyTo = (body) => (body.model === 'summariser' ? { content: summary } : undefined);
    try {
      const conversationId = await conversation();
      const padding = ' Filler.'.repeat(500);
      await turn(conversationId, versionId, `${FACT}${padding}`);
      for (let n = 2; n <= 8; n++) await turn(conversationId, versionId, `Note ${n}.${padding}`);
      const last = await turn(conversationId, versionId, 'What is my account number?');
      assert.match(last.output, /4711-22/);
      const summaries = (await items(conversationId)).filter((item) => item.type === 'compaction');
      assert.ok(summaries.length >= 1);
      const usage = await http.get(`/api/v1/agent-runs/${summaries[0]!.run_id}/usage`, { token: tenant.key });
      assert.deepEqual(
        usage.body.turns.map((row: { model: string }) => row.model),
        ['compat/summariser', 'local/extractive'],
      );
    } finally {
      compat.replyTo = undefined;
    }
    const refused = await http.post(`/api/v1/agents/${tenant.agentId}/versions`, {
      token: tenant.key,
      body: { model: 'local/extractive', instructions: 'x', compaction_model: 'openai/gpt-5-mini' },
    });
    assert.equal(refused.status, 400);
    assert.match(refused.headers.get('error-detail') ?? '', /^compaction_model: /);
  });
});
