import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, afterEach, before, describe, it } from 'node:test';
import { Http, type HttpResponse } from '../support/http';
import { testInfra } from '../support/infra';
import { assertLedgerReconciles } from '../support/ledger';
import { Stack } from '../support/stack';
import { createKey, createOrg } from '../support/tenant';

/** `POST /admin/v1/orgs/{org_id}/token-grants` under an Idempotency-Key: granted once, another body → 409. */
describe('token grants with an Idempotency-Key', () => {
  let stack: Stack;
  let http: Http;
  const orgs = new Set<string>();

  const newOrg = async () => {
    const orgId = await createOrg(http, 'Grant org');
    orgs.add(orgId);
    return orgId;
  };
  const grant = (orgId: string, body: Record<string, unknown>, key?: string) =>
    http.post(`/admin/v1/orgs/${orgId}/token-grants`, { token: testInfra().adminToken, body, headers: key ? { 'idempotency-key': key } : {} });
  const balanceOf = async (orgId: string) =>
    (await http.get('/api/v1/tokens/balance', { token: await createKey(http, orgId, ['tokens:read']) })).body.balance as number;
  const expectError = (response: HttpResponse, status: number, code: string) => {
    assert.equal(response.status, status, response.text);
    assert.deepEqual(response.body, { error: code });
  };

  before(async () => {
    stack = await Stack.start({ worker: false });
    http = new Http(stack.url);
  });
  afterEach(async () => assertLedgerReconciles(orgs));
  after(async () => stack?.stop());

  it('the same key and body: granted once, the first answer again', async () => {
    const orgId = await newOrg();
    const key = `grant-${randomUUID()}`;
    const first = await grant(orgId, { amount: 1_000, reason: 'monthly plan' }, key);
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.balance, 1_000);
    assert.equal((await grant(orgId, { amount: 50, reason: 'unkeyed' })).status, 201);
    const again = await grant(orgId, { amount: 1_000, reason: 'monthly plan' }, key);
    assert.equal(again.status, 201, again.text);
    assert.deepEqual(again.body, first.body);
    assert.equal(await balanceOf(orgId), 1_050);
  });

  const otherBodies: Array<[label: string, body: Record<string, unknown>]> = [
    ['another amount', { amount: 1_001, reason: 'monthly plan' }],
    ['another reason', { amount: 1_000, reason: 'yearly plan' }],
    ['another amount and reason', { amount: 7, reason: 'x' }],
  ];
  for (const [label, body] of otherBodies) {
    it(`the same key with ${label} → 409 idempotency_key_reused, nothing granted`, async () => {
      const orgId = await newOrg();
      const key = `grant-${randomUUID()}`;
      assert.equal((await grant(orgId, { amount: 1_000, reason: 'monthly plan' }, key)).status, 201);
      expectError(await grant(orgId, body, key), 409, 'idempotency_key_reused');
      assert.equal(await balanceOf(orgId), 1_000);
    });
  }

  it('a key belongs to one organisation: the same key grants in another', async () => {
    const [a, b] = [await newOrg(), await newOrg()];
    const key = `grant-${randomUUID()}`;
    assert.equal((await grant(a, { amount: 10, reason: 'r' }, key)).status, 201);
    const inB = await grant(b, { amount: 20, reason: 'other' }, key);
    assert.equal(inB.status, 201, inB.text);
    assert.deepEqual([await balanceOf(a), await balanceOf(b)], [10, 20]);
  });

  it('concurrent grants under one key: one entry; the same body gets it, another body 409', async () => {
    const orgId = await newOrg();
    const key = `race-${randomUUID()}`;
    const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => grant(orgId, { amount: i % 2 ? 200 : 100, reason: 'race' }, key)));
    const granted = responses.filter((response) => response.status === 201);
    assert.ok(granted.length > 0);
    assert.equal(new Set(granted.map((response) => response.body.entry.entry_id)).size, 1);
    const winner = granted[0]!.body.entry.amount as number;
    for (const response of responses) {
      if (response.status === 201) assert.equal(response.body.entry.amount, winner);
      else expectError(response, 409, 'idempotency_key_reused');
    }
    assert.equal(granted.length, 4);
    assert.equal(await balanceOf(orgId), winner);
  });

  it('an unknown organisation → 404 not_found, with or without a key', async () => {
    expectError(await grant(randomUUID(), { amount: 1, reason: 'r' }), 404, 'not_found');
    expectError(await grant(randomUUID(), { amount: 1, reason: 'r' }, `grant-${randomUUID()}`), 404, 'not_found');
  });
});
