import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Pylon } from '@pylon/sdk';
import { call } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { useChange, type After } from './mutation';

type Credential = Awaited<ReturnType<Pylon['modelCredentials']['put']>>;
type KeyCheck = Awaited<ReturnType<Pylon['modelCredentials']['check']>>;

/** The organisation's own provider keys, masked. */
export function useModelCredentials() {
  return useQuery({ queryKey: queryKeys.modelCredentials.list(), queryFn: () => call((pylon) => pylon.modelCredentials.list()) });
}

/** A key changes which providers the organisation can run, and on whose key: both lists are read again. */
function useRefreshModels() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.modelCredentials.all });
    void queryClient.invalidateQueries({ queryKey: queryKeys.agents.modelProviders() });
  };
}

export function usePutModelCredential(provider: string, { onSuccess }: After<Credential, string> = {}) {
  const refresh = useRefreshModels();
  return useChange((apiKey: string) => call((pylon) => pylon.modelCredentials.put(provider, { api_key: apiKey })), refresh, { onSuccess });
}

export function useRemoveModelCredential(provider: string) {
  const refresh = useRefreshModels();
  return useChange(() => call((pylon) => pylon.modelCredentials.remove(provider)), refresh);
}

/** One call to the provider on the stored key; what it answered is kept until the key changes. */
export function useCheckModelCredential(provider: string) {
  return useChange<KeyCheck>(
    () => call((pylon) => pylon.modelCredentials.check(provider)),
    () => undefined,
  );
}
