import { hashKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { call, onKeyRefused, type Schemas } from './api/client';
import { queryKeys } from './api/query-keys';
import { forgetApiKey, storeApiKey, storedApiKey } from './api/session';
import { grants, type Scope } from './scopes';

export interface Session {
  key: Schemas['ApiKeyView'];
  orgId: string;
  can: (scope: Scope) => boolean;
  signOut: () => void;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in console');
  return session;
}

/** The key in sessionStorage, checked against the API (`GET /api/v1/whoami`) for its organisation and scopes. */
export function useSignIn() {
  const queryClient = useQueryClient();
  const [apiKey, setApiKey] = useState(storedApiKey);
  /** Why the last key was refused, for the sign-in page. */
  const [refusal, setRefusal] = useState<unknown>(null);
  const current = useQuery({
    queryKey: queryKeys.whoami(apiKey),
    enabled: apiKey !== null,
    queryFn: () => call((pylon) => pylon.apiKeys.whoami()),
    staleTime: 60_000,
  });
  /** Forgets the key; `refusal` says why, when the API refused it. */
  const forget = useCallback(
    (reason: unknown = null) => {
      forgetApiKey();
      queryClient.clear();
      setRefusal(reason);
      setApiKey(null);
    },
    [queryClient],
  );
  const signOut = useCallback(() => forget(), [forget]);
  // A key the API refuses (mistyped, or revoked or expired while signed in) is not kept: when its whoami
  // finally fails (after the retries of a network error), or any request is refused for the key itself.
  useEffect(() => {
    const whoami = hashKey(queryKeys.whoami(apiKey));
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error' && event.query.queryHash === whoami) forget(event.action.error);
    });
  }, [queryClient, apiKey, forget]);
  useEffect(() => onKeyRefused(forget), [forget]);
  const signIn = useCallback(
    (key: string) => {
      storeApiKey(key);
      queryClient.clear();
      setRefusal(null);
      setApiKey(key);
    },
    [queryClient],
  );
  return { apiKey, current, refusal, signIn, signOut };
}

export function SessionProvider({ keyView, signOut, children }: { keyView: Schemas['ApiKeyView']; signOut: () => void; children: ReactNode }) {
  const session: Session = { key: keyView, orgId: keyView.org_id, can: (scope) => grants(keyView.scopes, scope), signOut };
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
