import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { LedgerRepository, type EntryReference } from './repositories/ledger.repository';
import type { Page, PageRequest, TokenEntry } from '@pylon/db';
import { createOnce, fingerprint } from '@pylon/idempotency';
import { OrganizationsService } from '@pylon/organizations';

export interface TokenGrantRequest {
  amount: number;
  reason: string;
}

export interface TokenGrant {
  entry: TokenEntry;
  /** The balance right after this grant, so that a replay answers exactly what the grant answered. */
  balance: number;
}

/** A grant entry keeps its whole request (amount and reason), so a replay is compared with the entry itself. */
function grantFingerprint(grant: { amount: number; reason: string | null }): string {
  return fingerprint({ amount: String(grant.amount), reason: grant.reason ?? '' });
}

/**
 * An organisation's token ledger: grants, debits and refunds as append-only entries, and a balance
 * that never goes below zero. Every write goes through here; a debit happens inside the transaction
 * of what it pays for (a video generation, a run's model turn), which its caller hands in.
 */
@Injectable()
export class LedgerService {
  constructor(
    private readonly ledger: LedgerRepository,
    private readonly orgs: OrganizationsService,
  ) {}

  /**
   * Adds tokens. Under an Idempotency-Key the organisation is granted once: the same key and request
   * answer the first grant again, the same key with another request is 409 `idempotency_key_reused`.
   */
  async grant(orgId: string, request: TokenGrantRequest, idempotencyKey: string | null): Promise<TokenGrant> {
    const withHash = (entry: TokenEntry | null) => entry && { entry, requestHash: grantFingerprint(entry) };
    const { entry } = await createOnce(idempotencyKey, grantFingerprint(request), {
      findByKey: async (key) => withHash(await this.ledger.findGrantByIdempotencyKey(orgId, key)),
      admit: async () => void (await this.orgs.require(orgId)),
      insert: async () => withHash(await this.ledger.grant(orgId, request.amount, request.reason, idempotencyKey)),
    });
    return { entry, balance: entry.balanceAfter };
  }

  /**
   * Takes `amount` for what `reference` names, inside the caller's transaction (`manager`), so the debit
   * commits with what it pays for; throws InsufficientTokensError, changing nothing, when the balance
   * cannot pay it.
   */
  debitWithin(manager: EntityManager, orgId: string, amount: number, reference: EntryReference, reason: string): Promise<TokenEntry> {
    return this.ledger.debit(manager, orgId, amount, reference, reason);
  }

  /** Gives a debit back, exactly once however often it is asked. */
  refund(orgId: string, debitEntryId: string, reason: string): Promise<TokenEntry> {
    return this.ledger.refund(orgId, debitEntryId, reason);
  }

  balance(orgId: string): Promise<number> {
    return this.ledger.balance(orgId);
  }

  entries(orgId: string, page: PageRequest): Promise<Page<TokenEntry>> {
    return this.ledger.listEntries(orgId, page);
  }
}
