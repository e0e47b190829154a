import type { Schemas } from './client';

export type LedgerEntry = Schemas['TokenEntryView'];

/** What one video generation or extension costs, in tokens. */
export const VIDEO_COST = 500_000;

/** The refund of each refunded video generation, by generation id (a refund points at its debit, the debit at the generation). */
export function refundsByGeneration(entries: LedgerEntry[]): Map<string, LedgerEntry> {
  const debits = new Map(entries.filter((entry) => entry.kind === 'debit').map((entry) => [entry.entry_id, entry]));
  const refunds = new Map<string, LedgerEntry>();
  for (const entry of entries) {
    if (entry.kind !== 'refund') continue;
    const charged = entry.reference_type === 'video_generation' ? entry : entry.refund_of ? debits.get(entry.refund_of) : undefined;
    if (charged?.reference_type === 'video_generation' && charged.reference_id) refunds.set(charged.reference_id, entry);
  }
  return refunds;
}

/** "cancelled, 500,000 refunded" from a refund's reason ("refund: cancelled"). */
export function describeRefund(refund: LedgerEntry): string {
  const why = (refund.reason ?? '').replace(/^refund:\s*/, '') || 'failed';
  return `${why}, ${refund.amount.toLocaleString()} tokens refunded`;
}
