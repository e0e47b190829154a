import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client';
import { queryKeys } from '../api/query-keys';

/** The organisation's usage summary (GET /api/v1/usage), shared by the pages that show part of it, refreshed every 15 s. */
export function useUsage() {
  return useQuery({ queryKey: queryKeys.usage(), queryFn: () => call((pylon) => pylon.usage.get()), refetchInterval: 15_000 });
}
