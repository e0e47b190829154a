import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { call, onKeyRefused, type Schemas } from './api/client';
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
    queryKey: ['whoami', apiKey],
    enabled: apiKey !== null,
    queryFn: () => call((pylon) => pylon.apiKeys.whoami()),
    staleTime: 60_000,
  });
  const signOut = useCallback(() => {
    forgetApiKey();
    queryClient.clear();
    setApiKey(null);
  }, [queryClient]);
  // A key the API refuses (mistyped, or revoked or expired while signed in) is not kept.
  useEffect(() => {
    if (!current.isError) return;
    setRefusal(current.error);
    signOut();
  }, [current.isError, current.error, signOut]);
  useEffect(
    () =>
      onKeyRefused((failure) => {
        setRefusal(failure);
        signOut();
      }),
    [signOut],
  );
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
