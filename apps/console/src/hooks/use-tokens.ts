import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { call } from '../api/client';
import { queryKeys } from '../api/query-keys';

/**
 * The organisation's balance and its latest ledger entries (newest first), refreshed every few seconds: a
 * refund is written by the video workflow after a cancel or failure, not by the request the page made.
 */
export function useLedger(enabled = true) {
  const entries = useQuery({
    queryKey: queryKeys.tokens.entries(),
    enabled,
    queryFn: () => call((pylon) => pylon.tokens.entries({ limit: 100 }).firstPage()),
    refetchInterval: 5_000,
  });
  const balance = useQuery({
    queryKey: queryKeys.tokens.balance(),
    enabled,
    queryFn: () => call((pylon) => pylon.tokens.balance()),
    refetchInterval: 5_000,
  });
  return { entries, balance };
}

/** The ledger, one page of 20 entries, refreshed every 5 s. */
export function useLedgerPage(cursor: string | undefined) {
  return useQuery({
    queryKey: queryKeys.tokens.entryPage(cursor),
    queryFn: () => call((pylon) => pylon.tokens.entries({ limit: 20 }).page(cursor)),
    refetchInterval: 5_000,
  });
}

/** After a charge or a refund: the balance and the latest entries read again. */
export function useLedgerChanged() {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.tokens.entries() });
    void queryClient.invalidateQueries({ queryKey: queryKeys.tokens.balance() });
  }, [queryClient]);
}
