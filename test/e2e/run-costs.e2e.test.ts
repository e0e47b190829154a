import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Http } from '../support/http';
import { testInfra } from '../support/infra';
import { assertLedgerReconciles, grantTokens } from '../support/ledger';
import { Stack } from '../support/stack';
import { createTenant, waitForRun, type Tenant } from '../support/tenant';
import { pause } from '../support/wait';

const INPUT = 'What is the status of order 42?';

/** Runs paid from the ledger: every model turn recorded with its tokens and debited at its model's price. */
describe('what a run costs', () => {
  let stack: Stack;
  let http: Http;
  const admin = () => ({ token: testInfra().adminToken });

  const createRun = (tenant: Tenant, input = INPUT) =>
    http.post('/api/v1/agent-runs', { token: tenant.key, body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input } });
  const finishedRun = async (tenant: Tenant, input = INPUT) => {
    const created = await createRun(tenant, input);
    assert.equal(created.status, 200, created.text);
    return (await waitForRun(http, tenant.key, created.body.run_id)).run;
  };
  const usageOf = async (tenant: Tenant, runId: string) => {
    const usage = await http.get(`/api/v1/agent-runs/${runId}/usage`, { token: tenant.key });
    assert.equal(usage.status, 200, usage.text);
    return usage.body;
  };
  const debitsOf = async (tenant: Tenant) => {
    const entries = await http.get('/api/v1/tokens/entries?limit=100', { token: tenant.key });
    assert.equal(entries.status, 200, entries.text);
    return (entries.body.data as any[]).filter((entry) => entry.kind === 'debit');
  };
  const balanceOf = async (tenant: Tenant) => (await http.get('/api/v1/tokens/balance', { token: tenant.key })).body.balance as number;

  before(async () => {
    // local/echo answers with its input: its turns are counted by the tokenizer, 1 service token per model token.
    stack = await Stack.start({ env: { MODEL_PRICES: JSON.stringify({ 'local/echo': { input: 1000, output: 1000 } }) } });
    http = new Http(stack.url);
  });
  after(async () => {
    await stack?.stop();
  });

  it('a run on a priced model is refused with 402 while the balance is empty; then each turn is debited, naming its run', async () => {
    const tenant = await createTenant(http, 'local/echo');
    const refused = await createRun(tenant);
    assert.equal(refused.status, 402, refused.text);
    assert.deepEqual(refused.body, { error: 'insufficient_tokens' });

    await grantTokens(http, tenant.orgId, 1_000);
    const run = await finishedRun(tenant);
    assert.equal(run.status, 'succeeded', run.error);
    const usage = await usageOf(tenant, run.run_id);
    assert.equal(usage.turns.length, 1);
    const [turn] = usage.turns;
    assert.equal(turn.model, 'local/echo');
    assert.equal(turn.counted_by, 'tokenizer');
    assert.ok(turn.input_tokens > 0 && turn.output_tokens > 0);
    assert.equal(turn.cost_tokens, turn.input_tokens + turn.output_tokens);
    assert.equal(turn.charged, true);
    assert.deepEqual(usage.total, { turns: 1, input_tokens: turn.input_tokens, output_tokens: turn.output_tokens, cost_tokens: turn.cost_tokens });
    assert.equal(await balanceOf(tenant), 1_000 - turn.cost_tokens);
    const [debit] = await debitsOf(tenant);
    assert.equal(debit.amount, turn.cost_tokens);
    assert.equal(debit.reference_type, 'agent_run');
    assert.equal(debit.reference_id, run.run_id);

    const report = await http.get('/api/v1/usage', { token: tenant.key });
    assert.equal(report.status, 200, report.text);
    for (const window of report.body.windows) {
      assert.deepEqual(window.models, {
        turns: 1,
        input_tokens: turn.input_tokens,
        output_tokens: turn.output_tokens,
        run_cost_tokens: turn.cost_tokens,
      });
    }
    await assertLedgerReconciles([tenant.orgId]);
  });

  it('free models cost nothing and still count their tokens; usage of another organisation’s run is 404', async () => {
    const tenant = await createTenant(http, 'local/extractive');
    const run = await finishedRun(tenant);
    const usage = await usageOf(tenant, run.run_id);
    assert.equal(usage.turns[0].cost_tokens, 0);
    assert.ok(usage.turns[0].input_tokens > 0);
    assert.deepEqual(await debitsOf(tenant), []);
    const other = await createTenant(http, 'local/extractive');
    const foreign = await http.get(`/api/v1/agent-runs/${run.run_id}/usage`, { token: other.key });
    assert.equal(foreign.status, 404, foreign.text);
    const malformed = await http.get('/api/v1/agent-runs/not-a-uuid/usage', { token: other.key });
    assert.equal(malformed.status, 400, malformed.text);
  });

  it('an organisation’s own prices (admin API) win over MODEL_PRICES, and [] puts those back', async () => {
    const tenant = await createTenant(http, 'local/extractive');
    const path = `/admin/v1/orgs/${tenant.orgId}/model-prices`;
    const set = await http.put(path, { ...admin(), body: { prices: [{ model: 'local/*', input_per_1k_tokens: 2000, output_per_1k_tokens: 0 }] } });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(set.body, {
      org_id: tenant.orgId,
      organisation: [{ model: 'local/*', input_per_1k_tokens: 2000, output_per_1k_tokens: 0 }],
      configured: [{ model: 'local/echo', input_per_1k_tokens: 1000, output_per_1k_tokens: 1000 }],
    });
    assert.equal((await createRun(tenant)).status, 402, 'now priced, and nothing granted');
    await grantTokens(http, tenant.orgId, 500);
    const run = await finishedRun(tenant);
    const [turn] = (await usageOf(tenant, run.run_id)).turns;
    assert.equal(turn.model, 'local/extractive', 'priced by local/*, recorded under its own id');
    assert.equal(turn.cost_tokens, 2 * turn.input_tokens);

    for (const prices of [
      [
        { model: 'local/*', input_per_1k_tokens: 1, output_per_1k_tokens: 1 },
        { model: 'local/*', input_per_1k_tokens: 2, output_per_1k_tokens: 2 },
      ],
      [{ model: 'gpt-4o', input_per_1k_tokens: 1, output_per_1k_tokens: 1 }],
      [{ model: 'local/echo', input_per_1k_tokens: -1, output_per_1k_tokens: 1 }],
      [{ model: 'local/echo', input_per_1k_tokens: 1, output_per_1k_tokens: 1, currency: 'EUR' }],
    ]) {
      const bad = await http.put(path, { ...admin(), body: { prices } });
      assert.equal(bad.status, 400, `${JSON.stringify(prices)}: ${bad.text}`);
    }
    const unknownOrg = await http.put('/admin/v1/orgs/00000000-0000-4000-8000-000000000000/model-prices', { ...admin(), body: { prices: [] } });
    assert.equal(unknownOrg.status, 404, unknownOrg.text);
    const asTenant = await http.get(path, { token: tenant.key });
    assert.equal(asTenant.status, 401, asTenant.text);

    const reset = await http.put(path, { ...admin(), body: { prices: [] } });
    assert.deepEqual(reset.body.organisation, []);
    const free = await finishedRun(tenant);
    assert.equal((await usageOf(tenant, free.run_id)).turns[0].cost_tokens, 0);
  });

  it('100 concurrent runs with a balance for 10 turns: 10 are paid, the rest fail insufficient_tokens, no balance below zero', async () => {
    const measuring = await createTenant(http, 'local/echo');
    await grantTokens(http, measuring.orgId, 10_000);
    const cost = (await usageOf(measuring, (await finishedRun(measuring)).run_id)).total.cost_tokens as number;
    assert.ok(cost > 0);

    const tenant = await createTenant(http, 'local/echo');
    await grantTokens(http, tenant.orgId, 10 * cost);
    const accepted: string[] = [];
    let refused = 0;
    await Promise.all(
      Array.from({ length: 100 }, async () => {
        for (;;) {
          const created = await createRun(tenant);
          if (created.status === 429) {
            await pause(Number(created.headers.get('retry-after') ?? 1) * 1000); // a client honouring Retry-After
            continue;
          }
          if (created.status === 402) refused++;
          else {
            assert.equal(created.status, 200, created.text);
            accepted.push(created.body.run_id);
          }
          return;
        }
      }),
    );
    const runs = await Promise.all(accepted.map(async (runId) => (await waitForRun(http, tenant.key, runId, 120_000)).run));
    const succeeded = runs.filter((run) => run.status === 'succeeded');
    assert.equal(succeeded.length, 10, `succeeded ${succeeded.length}, refused at create ${refused}`);
    for (const run of runs.filter((candidate) => candidate.status === 'failed')) assert.equal(run.error, 'insufficient_tokens');
    assert.equal(accepted.length + refused, 100);
    assert.equal(await balanceOf(tenant), 0);
    await assertLedgerReconciles([tenant.orgId]);

    const debits = await debitsOf(tenant);
    assert.equal(debits.length, 10);
    assert.deepEqual(new Set(debits.map((debit) => debit.reference_id)), new Set(succeeded.map((run) => run.run_id)), 'every debit names a paid run');
    for (const run of runs) {
      const usage = await usageOf(tenant, run.run_id);
      const paid = debits.filter((debit) => debit.reference_id === run.run_id).reduce((sum, debit) => sum + debit.amount, 0);
      const charged = usage.turns.filter((turn: any) => turn.charged).reduce((sum: number, turn: any) => sum + turn.cost_tokens, 0);
      assert.equal(usage.total.cost_tokens, charged, 'a run’s total is the sum of its turns');
      assert.equal(paid, charged, 'and what the ledger debited for it');
    }
  });
});
