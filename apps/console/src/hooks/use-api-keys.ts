import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Pylon } from '@pylon/sdk';
import { call } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { useChange, type After } from './mutation';

type KeyCreate = Parameters<Pylon['apiKeys']['create']>[0];
type Issued<M extends 'create' | 'roll'> = Awaited<ReturnType<Pylon['apiKeys'][M]>>;

/** The organisation's keys, one page of 20. */
export function useApiKeys(cursor: string | undefined) {
  return useQuery({
    queryKey: queryKeys.apiKeys.list(cursor),
    queryFn: () => call((pylon) => pylon.apiKeys.list({ limit: 20 }).page(cursor)),
  });
}

function useRefreshKeys() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys.all });
}

export function useCreateApiKey({ onSuccess }: After<Issued<'create'>, KeyCreate> = {}) {
  const refresh = useRefreshKeys();
  return useChange((body: KeyCreate) => call((pylon) => pylon.apiKeys.create(body)), refresh, { onSuccess });
}

/** A new secret for a key; the old one keeps working for requests for `graceSeconds`. */
export function useRollApiKey(keyId: string, { onSuccess }: After<Issued<'roll'>, number> = {}) {
  const refresh = useRefreshKeys();
  return useChange((graceSeconds: number) => call((pylon) => pylon.apiKeys.roll(keyId, { grace_seconds: graceSeconds })), refresh, { onSuccess });
}

export function useRevokeApiKey(keyId: string, { onSuccess }: After<unknown> = {}) {
  const refresh = useRefreshKeys();
  return useMutation({
    mutationFn: () => call((pylon) => pylon.apiKeys.revoke(keyId)),
    onSuccess: (revoked) => {
      refresh();
      return onSuccess?.(revoked, undefined);
    },
  });
}
