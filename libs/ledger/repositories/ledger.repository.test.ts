import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { DataSource } from 'typeorm';
import { insertOrganization, repositoryDataSource } from '../../../test/support/repository-db';
import { InsufficientTokensError, LedgerRepository } from './ledger.repository';

/**
 * The ledger's one-statement debit on the real migrations: the balance arithmetic, the refusal that
 * changes nothing, grants and refunds that count once however often they are asked, and organisations
 * that never see or spend each other's tokens.
 */
describe('LedgerRepository: the debit on the migrated database', () => {
  let db: DataSource;
  let ledger: LedgerRepository;

  before(async () => {
    db = await repositoryDataSource();
    ledger = new LedgerRepository(db);
  });
  after(async () => {
    await db?.destroy();
  });

  const reference = () => ({ type: 'video_generation', id: randomUUID() });
  const debit = (orgId: string, amount: number, ref = reference()) =>
    db.transaction((manager) => ledger.debit(manager, orgId, amount, ref, `debit of ${amount}`));

  /** The organisation's entries, oldest first, and whether they sum to its balance. */
  async function entries(orgId: string): Promise<Array<{ kind: string; delta: number; balanceAfter: number }>> {
    const rows = (await db.query(`SELECT kind, delta, balance_after FROM token_entries WHERE org_id = $1 ORDER BY created_at, balance_after DESC`, [
      orgId,
    ])) as Array<{ kind: string; delta: string; balance_after: string }>;
    const list = rows.map((row) => ({ kind: row.kind, delta: Number(row.delta), balanceAfter: Number(row.balance_after) }));
    assert.equal(
      list.reduce((sum, entry) => sum + entry.delta, 0),
      await ledger.balance(orgId),
      'the entries sum to the balance',
    );
    return list;
  }

  it('a debit takes its amount and records the balance after it', async () => {
    const { orgId } = await insertOrganization(db);
    const granted = await ledger.grant(orgId, 1_000, 'test grant', null);
    assert.equal(granted?.balanceAfter, 1_000);
    const ref = reference();
    const entry = await debit(orgId, 300, ref);
    assert.deepEqual(
      { kind: entry.kind, amount: Number(entry.amount), delta: Number(entry.delta), balanceAfter: Number(entry.balanceAfter) },
      { kind: 'debit', amount: 300, delta: -300, balanceAfter: 700 },
    );
    assert.deepEqual([entry.referenceType, entry.referenceId], [ref.type, ref.id]);
    await debit(orgId, 700);
    assert.equal(await ledger.balance(orgId), 0, 'a debit may take the balance to exactly zero');
    assert.deepEqual(await entries(orgId), [
      { kind: 'grant', delta: 1_000, balanceAfter: 1_000 },
      { kind: 'debit', delta: -300, balanceAfter: 700 },
      { kind: 'debit', delta: -700, balanceAfter: 0 },
    ]);
  });

  it('a debit the balance cannot pay is refused and changes nothing, nor does the rest of its transaction', async () => {
    const { orgId } = await insertOrganization(db);
    await ledger.grant(orgId, 100, 'test grant', null);
    await assert.rejects(debit(orgId, 101), (error: unknown) => error instanceof InsufficientTokensError && error.amount === 101);
    await assert.rejects(
      db.transaction(async (manager) => {
        await ledger.debit(manager, orgId, 60, reference(), 'first');
        await ledger.debit(manager, orgId, 60, reference(), 'second');
      }),
      InsufficientTokensError,
    );
    assert.equal(await ledger.balance(orgId), 100);
    assert.deepEqual(await entries(orgId), [{ kind: 'grant', delta: 100, balanceAfter: 100 }]);
    // An organisation that never had a balance cannot pay anything.
    const { orgId: empty } = await insertOrganization(db);
    await assert.rejects(debit(empty, 1), InsufficientTokensError);
    assert.equal(await ledger.balance(empty), 0);
  });

  it('concurrent debits never take the balance below zero', async () => {
    const { orgId } = await insertOrganization(db);
    await ledger.grant(orgId, 500, 'test grant', null);
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => debit(orgId, 100)));
    assert.equal(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 5);
    assert.ok(outcomes.every((outcome) => outcome.status === 'fulfilled' || outcome.reason instanceof InsufficientTokensError));
    assert.equal(await ledger.balance(orgId), 0);
    assert.equal((await entries(orgId)).length, 6);
  });

  it('a grant under a key already used and a refund asked twice each count once', async () => {
    const { orgId } = await insertOrganization(db);
    const key = `grant-${randomUUID()}`;
    const grant = await ledger.grant(orgId, 400, 'test grant', key);
    assert.ok(grant);
    assert.equal(await ledger.grant(orgId, 400, 'test grant', key), null, 'the same key grants nothing');
    assert.equal((await ledger.findGrantByIdempotencyKey(orgId, key))?.id, grant.id);
    const paid = await debit(orgId, 150);
    const refund = await ledger.refund(orgId, paid.id, 'refunded');
    assert.equal(Number(refund.balanceAfter), 400);
    assert.equal((await ledger.refund(orgId, paid.id, 'refunded again')).id, refund.id, 'the second refund is the first');
    assert.equal(await ledger.balance(orgId), 400);
    assert.deepEqual((await entries(orgId)).map((entry) => entry.kind).sort(), ['debit', 'grant', 'refund']);
  });

  it("another organisation's id sees nothing, spends nothing and refunds nothing of it", async () => {
    const { orgId } = await insertOrganization(db);
    const { orgId: other } = await insertOrganization(db);
    const key = `grant-${randomUUID()}`;
    await ledger.grant(orgId, 200, 'test grant', key);
    const paid = await debit(orgId, 50);

    assert.equal(await ledger.balance(other), 0);
    assert.deepEqual((await ledger.listEntries(other, { limit: 10 })).items, []);
    assert.equal(await ledger.findGrantByIdempotencyKey(other, key), null);
    await assert.rejects(debit(other, 1), InsufficientTokensError);
    await assert.rejects(ledger.refund(other, paid.id, 'not yours'), /no debit/);
    // The key is the organisation's own: another organisation may use the same one.
    assert.ok(await ledger.grant(other, 10, 'test grant', key));

    assert.equal(await ledger.balance(orgId), 150);
    assert.equal((await ledger.listEntries(orgId, { limit: 10 })).items.length, 2);
    assert.equal(await ledger.balance(other), 10);
  });
});
