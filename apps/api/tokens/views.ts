import type { TokenEntry } from '@pylon/db';
import type { TokenEntryView } from './dto/tokens.dto';

export function toTokenEntryView(entry: TokenEntry): TokenEntryView {
  return {
    entry_id: entry.id,
    org_id: entry.orgId,
    kind: entry.kind,
    amount: entry.amount,
    delta: entry.delta,
    balance_after: entry.balanceAfter,
    reference_type: entry.referenceType,
    reference_id: entry.referenceId,
    refund_of: entry.refundOf,
    reason: entry.reason,
    created_at: entry.createdAt.toISOString(),
  };
}
