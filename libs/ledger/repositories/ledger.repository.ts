import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { TokenEntry, Page, PageRequest, paginate, returnedRows } from '@pylon/db';

export class InsufficientTokensError extends Error {
  constructor(
    readonly orgId: string,
    readonly amount: number,
  ) {
    super(`organisation ${orgId} has fewer than ${amount} tokens`);
    this.name = 'InsufficientTokensError';
  }
}

export interface EntryReference {
  type: string;
  id: string;
}

const UNIQUE_VIOLATION = '23505';

function isUniqueViolation(error: unknown): boolean {
  return error instanceof QueryFailedError && (error.driverError as { code?: string }).code === UNIQUE_VIOLATION;
}

/**
 * The token ledger. Every change of a balance writes its entry in the same transaction, and a debit is
 * one conditional UPDATE (`balance >= amount`), so no interleaving of requests can take a balance below
 * zero, and an organisation's entries always sum to its balance.
 */
@Injectable()
export class LedgerRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Adds to the balance and writes the grant's entry; null, with nothing written, when a grant under
   * the same Idempotency-Key is already stored. The organisation's balance row is locked first, so
   * grants of one organisation take turns and the key check cannot race.
   */
  async grant(orgId: string, amount: number, reason: string, idempotencyKey: string | null): Promise<TokenEntry | null> {
    return this.db.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO token_balances (org_id, balance, updated_at) VALUES ($1, 0, now())
         ON CONFLICT (org_id) DO UPDATE SET updated_at = token_balances.updated_at`,
        [orgId],
      );
      if (idempotencyKey && (await manager.existsBy(TokenEntry, { orgId, idempotencyKey }))) return null;
      const [row] = returnedRows<{ balance: string }>(
        await manager.query(`UPDATE token_balances SET balance = balance + $2, updated_at = now() WHERE org_id = $1 RETURNING balance`, [
          orgId,
          amount,
        ]),
      );
      return this.insertEntry(manager, { orgId, kind: 'grant', amount, delta: amount, balanceAfter: Number(row!.balance), reason, idempotencyKey });
    });
  }

  findGrantByIdempotencyKey(orgId: string, idempotencyKey: string): Promise<TokenEntry | null> {
    return this.db.getRepository(TokenEntry).findOneBy({ orgId, idempotencyKey, kind: 'grant' });
  }

  /** Inside the caller's transaction: takes `amount` or throws InsufficientTokensError, changing nothing. */
  async debit(manager: EntityManager, orgId: string, amount: number, reference: EntryReference, reason: string): Promise<TokenEntry> {
    const updated = returnedRows<{ balance: string }>(
      await manager.query(
        `UPDATE token_balances SET balance = balance - $2, updated_at = now() WHERE org_id = $1 AND balance >= $2 RETURNING balance`,
        [orgId, amount],
      ),
    );
    if (updated.length === 0) throw new InsufficientTokensError(orgId, amount);
    return this.insertEntry(manager, {
      orgId,
      kind: 'debit',
      amount,
      delta: -amount,
      balanceAfter: Number(updated[0]!.balance),
      reference,
      reason,
    });
  }

  /** Gives a debit back, exactly once however often it is asked (one refund per debit, enforced by a unique key). */
  async refund(orgId: string, debitEntryId: string, reason: string): Promise<TokenEntry> {
    try {
      return await this.db.transaction(async (manager) => {
        const debit = await manager.findOneBy(TokenEntry, { id: debitEntryId, orgId, kind: 'debit' });
        if (!debit) throw new Error(`no debit ${debitEntryId} in organisation ${orgId}`);
        const existing = await manager.findOneBy(TokenEntry, { refundOf: debitEntryId });
        if (existing) return existing;
        const [balance] = returnedRows<{ balance: string }>(
          await manager.query(`UPDATE token_balances SET balance = balance + $2, updated_at = now() WHERE org_id = $1 RETURNING balance`, [
            orgId,
            debit.amount,
          ]),
        );
        return this.insertEntry(manager, {
          orgId,
          kind: 'refund',
          amount: debit.amount,
          delta: debit.amount,
          balanceAfter: Number(balance!.balance),
          reference: debit.referenceType && debit.referenceId ? { type: debit.referenceType, id: debit.referenceId } : undefined,
          refundOf: debitEntryId,
          reason,
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        const existing = await this.db.getRepository(TokenEntry).findOneBy({ refundOf: debitEntryId });
        if (existing) return existing;
      }
      throw error;
    }
  }

  async balance(orgId: string): Promise<number> {
    const [row] = (await this.db.query(`SELECT balance FROM token_balances WHERE org_id = $1`, [orgId])) as Array<{ balance: string }>;
    return row ? Number(row.balance) : 0;
  }

  listEntries(orgId: string, page: PageRequest): Promise<Page<TokenEntry>> {
    return paginate(this.db.getRepository(TokenEntry).createQueryBuilder('entry').where('entry.org_id = :orgId', { orgId }), page);
  }

  private insertEntry(
    manager: EntityManager,
    entry: Pick<TokenEntry, 'orgId' | 'kind' | 'amount' | 'delta' | 'balanceAfter'> & {
      reference?: EntryReference;
      refundOf?: string;
      reason?: string | null;
      idempotencyKey?: string | null;
    },
  ): Promise<TokenEntry> {
    return manager.save(
      TokenEntry,
      manager.create(TokenEntry, {
        id: randomUUID(),
        orgId: entry.orgId,
        kind: entry.kind,
        amount: entry.amount,
        delta: entry.delta,
        balanceAfter: entry.balanceAfter,
        referenceType: entry.reference?.type ?? null,
        referenceId: entry.reference?.id ?? null,
        refundOf: entry.refundOf ?? null,
        idempotencyKey: entry.idempotencyKey ?? null,
        reason: entry.reason ?? null,
        createdAt: new Date(),
      }),
    );
  }
}
