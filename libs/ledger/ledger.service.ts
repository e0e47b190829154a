import { Injectable } from '@nestjs/common';
import { LedgerRepository, type Page, type PageRequest, type TokenEntry } from '@pylon/db';

/**
 * An organisation's token ledger: grants, debits and refunds as append-only entries, and a balance
 * that never goes below zero. Debits happen inside the transaction that creates what they pay for
 * (see VideoGenerationRepository.createWithDebit); everything else goes through here.
 */
@Injectable()
export class LedgerService {
  constructor(private readonly ledger: LedgerRepository) {}

  grant(orgId: string, amount: number, reason: string, idempotencyKey: string | null): Promise<TokenEntry> {
    return this.ledger.grant(orgId, amount, reason, idempotencyKey);
  }

  balance(orgId: string): Promise<number> {
    return this.ledger.balance(orgId);
  }

  entries(orgId: string, page: PageRequest): Promise<Page<TokenEntry>> {
    return this.ledger.listEntries(orgId, page);
  }
}
