import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../../components/ui';

/** Sign in with an organisation API key; it is kept in this tab's sessionStorage only. */
export function SignInPage({ onSignIn, error }: { onSignIn: (apiKey: string) => void; error: unknown }) {
  const [apiKey, setApiKey] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (apiKey.trim()) onSignIn(apiKey.trim());
  };
  return (
    <main id="main" className="centered sign-in">
      <h1>Pylon console</h1>
      <p>Sign in with an API key of your organisation. The console offers what the key’s scopes allow.</p>
      <form onSubmit={submit}>
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="pyl_…"
          required
          value={apiKey}
          onChange={(event) => setApiKey(event.target.value)}
        />
        <button type="submit">Sign in</button>
      </form>
      <ErrorNotice error={error} />
      <p className="hint">
        The key stays in this browser tab only (sessionStorage): never in a cookie or the address, and closing the tab signs out.
      </p>
    </main>
  );
}
