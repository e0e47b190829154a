import assert from 'node:assert/strict';
import { testInfra } from './infra';
import { sql } from './db';
import type { Http } from './http';

export async function grantTokens(http: Http, orgId: string, amount: number, reason = 'test grant'): Promise<number> {
  const response = await http.post(`/admin/v1/orgs/${orgId}/token-grants`, { token: testInfra().adminToken, body: { amount, reason } });
  assert.equal(response.status, 201, response.text);
  return response.body.balance as number;
}

/** The ledger invariant: an organisation's entries sum to its balance, which is never negative. */
export async function assertLedgerReconciles(orgIds: Iterable<string>): Promise<void> {
  for (const orgId of orgIds) {
    const [row] = await sql<{ balance: string; sum: string }>(
      `SELECT COALESCE((SELECT balance FROM token_balances WHERE org_id = $1), 0) AS balance,
              COALESCE((SELECT SUM(delta) FROM token_entries WHERE org_id = $1), 0) AS sum`,
      [orgId],
    );
    assert.equal(Number(row!.sum), Number(row!.balance), `org ${orgId}: entries sum ${row!.sum}, balance ${row!.balance}`);
    assert.ok(Number(row!.balance) >= 0);
  }
}
