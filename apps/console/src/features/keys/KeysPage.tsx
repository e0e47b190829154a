import { useState, type FormEvent } from 'react';
import type { Schemas } from '../../api/client';
import { useApiKeys, useCreateApiKey, useRevokeApiKey, useRollApiKey } from '../../hooks/use-api-keys';
import { useUsage } from '../../hooks/use-usage';
import { DocsLink, ErrorNotice, SecretOnce, usePager, When } from '../../components/ui';
import { ConfirmAction } from '../../components/ConfirmAction';
import { PagedTable, numeric } from '../../components/DataTable';
import { Submit } from '../../components/Submit';
import { SCOPES, type Scope } from '../../scopes';
import { useSession } from '../../session';

type NewScope = Schemas['CreateApiKeyRequest']['scopes'][number];

/** The organisation's API keys: list, create (at most this key's scopes), roll with a grace period, revoke. */
export function KeysPage() {
  const { key: me, can } = useSession();
  const pager = usePager();
  const keys = useApiKeys(pager.cursor);
  // Request counts come from the usage summary, which has every live key of the organisation.
  const usage = useUsage();
  const requests = new Map((usage.data?.api_keys ?? []).map((counts) => [counts.key_id, counts]));
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);

  // A key can never get a scope its creator lacks, so only the ones this key has are offered.
  const grantable: Array<{ scope: NewScope; allows: string }> = [
    ...(me.scopes.includes('*') ? [{ scope: '*' as const, allows: 'everything, now and later' }] : []),
    ...SCOPES.filter(({ scope }) => can(scope as Scope)),
  ];
  const withheld = SCOPES.filter(({ scope }) => !can(scope as Scope)).map(({ scope }) => scope);

  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<NewScope[]>([]);
  const [expiresAt, setExpiresAt] = useState('');
  const create = useCreateApiKey({
    onSuccess: (issued) => {
      setSecret({ label: `Secret of the new key “${issued.name}”`, value: issued.api_key });
      setName('');
      setChosen([]);
      setExpiresAt('');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name, scopes: chosen, ...(expiresAt ? { expires_at: new Date(expiresAt).toISOString() } : {}) });
  };
  const toggle = (scope: NewScope, on: boolean) => setChosen(on ? [...chosen, scope] : chosen.filter((s) => s !== scope));

  return (
    <>
      <h1>API keys</h1>
      <DocsLink tag="api keys">API keys in the API reference</DocsLink>
      {secret && <SecretOnce label={secret.label} secret={secret.value} onDone={() => setSecret(null)} />}

      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">Keys of the organisation</h2>
        <PagedTable
          list={keys}
          pager={pager}
          label="API keys, newest first"
          columns={[
            'Name',
            'Prefix',
            'Scopes',
            'Created',
            'Last used',
            numeric('Requests, 24 h'),
            numeric('Requests, 30 days'),
            'Expires',
            'Actions',
          ]}
          empty="No keys yet."
          pagesLabel="Pages of keys"
          row={(key) => (
            <KeyRow key={key.key_id} apiKey={key} requests={requests.get(key.key_id)} isMine={key.key_id === me.key_id} onSecret={setSecret} />
          )}
        />
      </section>

      <section aria-labelledby="create-key-heading">
        <h2 id="create-key-heading">Create a key</h2>
        <form onSubmit={submit} className="stack">
          <label htmlFor="key-name">Name</label>
          <input id="key-name" required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
          <fieldset>
            <legend>Scopes</legend>
            {grantable.map(({ scope, allows }) => (
              <label key={scope} className="check">
                <input type="checkbox" checked={chosen.includes(scope)} onChange={(event) => toggle(scope, event.target.checked)} />
                <code>{scope}</code> <span className="muted">{allows}</span>
              </label>
            ))}
          </fieldset>
          {withheld.length > 0 && (
            <p className="notice scope">
              Not offered, because this key does not have them and a key can never get scopes its creator lacks: {withheld.join(', ')}.
            </p>
          )}
          <label htmlFor="key-expires">Expires (optional)</label>
          <input id="key-expires" type="datetime-local" value={expiresAt} onChange={(event) => setExpiresAt(event.target.value)} />
          <Submit disabled={create.isPending || chosen.length === 0} error={create.error}>
            Create key
          </Submit>
        </form>
      </section>
    </>
  );
}

function KeyRow({
  apiKey,
  requests,
  isMine,
  onSecret,
}: {
  apiKey: Schemas['ApiKeyView'];
  requests: Schemas['KeyUsageView'] | undefined;
  isMine: boolean;
  onSecret: (secret: { label: string; value: string }) => void;
}) {
  const [graceSeconds, setGraceSeconds] = useState('3600');
  const roll = useRollApiKey(apiKey.key_id, {
    onSuccess: (rolled) =>
      onSecret({
        label: `New secret of “${rolled.name}” (the old one works for requests until ${new Date(rolled.previous_secret_expires_at ?? Date.now()).toLocaleString()}, but can no longer create, roll or revoke keys)`,
        value: rolled.api_key,
      }),
  });
  const revoke = useRevokeApiKey(apiKey.key_id);
  const revoked = apiKey.revoked_at !== null;
  return (
    <tr>
      <td>
        {apiKey.name}
        {isMine && (
          <>
            {' '}
            <em>(this key)</em>
          </>
        )}
      </td>
      <td>
        <code>{apiKey.hint}</code>
      </td>
      <td>
        {apiKey.scopes.map((scope) => (
          <code key={scope} className="tag">
            {scope}
          </code>
        ))}
      </td>
      <td>
        <When at={apiKey.created_at} />
      </td>
      <td>
        <When at={apiKey.last_used_at} />
      </td>
      <td className="number">{requests ? requests.requests_24h.toLocaleString() : <span className="muted">—</span>}</td>
      <td className="number">{requests ? requests.requests_30d.toLocaleString() : <span className="muted">—</span>}</td>
      <td>
        {revoked ? (
          <>
            revoked <When at={apiKey.revoked_at} />
          </>
        ) : apiKey.expires_at ? (
          <When at={apiKey.expires_at} />
        ) : (
          'never'
        )}
      </td>
      <td className="actions">
        {!revoked && (
          <>
            <label>
              Grace period for the old secret{' '}
              <select value={graceSeconds} onChange={(event) => setGraceSeconds(event.target.value)}>
                <option value="0">none</option>
                <option value="300">5 minutes</option>
                <option value="3600">1 hour</option>
                <option value="86400">1 day</option>
              </select>
            </label>
            <button type="button" onClick={() => roll.mutate(Number(graceSeconds))} disabled={roll.isPending} aria-label={`Roll ${apiKey.name}`}>
              Roll
            </button>
            <ConfirmAction
              action="Revoke"
              acting="revoking"
              target={apiKey.name}
              question={<span>Revoke {isMine ? 'the key you are signed in with' : 'it'}? Requests with it fail at once.</span>}
              busy={revoke.isPending}
              onConfirm={() => revoke.mutate()}
            />
          </>
        )}
        <ErrorNotice error={roll.error ?? revoke.error} />
      </td>
    </tr>
  );
}
