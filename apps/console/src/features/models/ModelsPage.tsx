import { useState, type FormEvent } from 'react';
import type { Schemas } from '../../api/client';
import { useModelProviders } from '../../hooks/use-agents';
import { useCheckModelCredential, useModelCredentials, usePutModelCredential, useRemoveModelCredential } from '../../hooks/use-model-credentials';
import { DocsLink, Done, ErrorNotice, TableScroll, When } from '../../components/ui';
import { ConfirmAction } from '../../components/ConfirmAction';
import { Submit } from '../../components/Submit';

type Provider = Schemas['ModelProviderView'];
type Credential = Schemas['ModelCredentialView'];

/** The model providers this organisation can run, on whose key, and its own keys: set, checked, replaced, removed. */
export function ModelsPage() {
  const providers = useModelProviders();
  const credentials = useModelCredentials();
  const list = providers.data?.data ?? [];
  const keyOf = new Map((credentials.data?.data ?? []).map((credential) => [credential.provider, credential]));
  return (
    <>
      <h1>Models</h1>
      <DocsLink tag="management">Model credentials in the API reference</DocsLink>
      <section aria-labelledby="providers-heading">
        <h2 id="providers-heading">Providers</h2>
        <ErrorNotice error={providers.error} />
        <TableScroll label="Model providers">
          <table>
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Models</th>
                <th scope="col">Runs on</th>
              </tr>
            </thead>
            <tbody>
              {list.map((provider) => (
                <tr key={provider.provider}>
                  <td>
                    <code>{provider.provider}</code>
                  </td>
                  <td>
                    {provider.models
                      ? provider.models.map((id) => (
                          <code key={id} className="tag">
                            {id}
                          </code>
                        ))
                      : `any ${provider.provider}/<model name>`}
                  </td>
                  <td>{runsOn(provider)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>
      <section aria-labelledby="own-keys-heading">
        <h2 id="own-keys-heading">The organisation’s own keys</h2>
        <p className="hint">
          Runs on a provider with a key here call it with this key, and this server’s prices do not apply to them. A key is kept sealed and shown
          masked; nobody can read it back.
        </p>
        <ErrorNotice error={credentials.error} />
        {list
          .filter((provider) => provider.takes_key)
          .map((provider) => (
            <ProviderKey key={provider.provider} provider={provider.provider} credential={keyOf.get(provider.provider)} />
          ))}
      </section>
    </>
  );
}

function runsOn(provider: Provider): string {
  if (!provider.takes_key) return 'this server, offline, with no key';
  if (provider.key_source === 'organization') return 'the organisation’s own key';
  if (provider.key_source === 'operator') return 'this server’s key';
  return provider.configured ? 'not available: this server does not share its key, set your own' : 'not available: set a key';
}

function ProviderKey({ provider, credential }: { provider: string; credential: Credential | undefined }) {
  const [apiKey, setApiKey] = useState('');
  const check = useCheckModelCredential(provider);
  const put = usePutModelCredential(provider, {
    onSuccess: () => {
      setApiKey('');
      check.reset();
    },
  });
  const remove = useRemoveModelCredential(provider);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    put.mutate(apiKey.trim());
  };
  const inputId = `model-key-${provider}`;
  return (
    <fieldset className="stack">
      <legend>{provider}</legend>
      {credential ? (
        <p>
          Key <code>{credential.api_key}</code>, set <When at={credential.updated_at} />
        </p>
      ) : (
        <p className="muted">No key of the organisation’s own.</p>
      )}
      {credential && (
        <div className="row">
          <button type="button" onClick={() => check.mutate()} disabled={check.isPending} aria-label={`Check the ${provider} key`}>
            {check.isPending ? 'Checking…' : 'Check'}
          </button>
          <ConfirmAction
            action="Remove"
            acting="removing"
            target={`the ${provider} key`}
            question={<span>Remove it? Runs on {provider} go back to this server’s key, if it shares one, or fail.</span>}
            busy={remove.isPending}
            onConfirm={() => remove.mutate(undefined, { onSuccess: () => check.reset() })}
          />
        </div>
      )}
      {check.data &&
        (check.data.valid ? (
          <Done>{provider} accepted the key.</Done>
        ) : (
          <p className="notice error" role="status">
            {provider} refused the key: {check.data.reason}
          </p>
        ))}
      <ErrorNotice error={check.error ?? remove.error} />
      <form onSubmit={submit} className="stack">
        <label htmlFor={inputId}>{credential ? `Replace the ${provider} key` : `${provider} API key`}</label>
        <input
          id={inputId}
          type="password"
          autoComplete="off"
          spellCheck={false}
          required
          maxLength={1024}
          value={apiKey}
          onChange={(event) => setApiKey(event.target.value)}
        />
        <Submit disabled={put.isPending || apiKey.trim() === ''} error={put.error}>
          {credential ? 'Replace key' : 'Save key'}
        </Submit>
      </form>
    </fieldset>
  );
}
