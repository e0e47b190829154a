import { When } from '../components/ui';
import { SCOPES } from '../scopes';
import { useSession } from '../session';

/** Who is signed in, and what its scopes let the console do. */
export function HomePage() {
  const { key, can } = useSession();
  return (
    <>
      <h1>Overview</h1>
      <dl className="facts">
        <dt>Organisation</dt>
        <dd>
          <code>{key.org_id}</code>
        </dd>
        <dt>API key</dt>
        <dd>
          <code>{key.hint}</code> “{key.name}”
        </dd>
        <dt>Expires</dt>
        <dd>{key.expires_at ? <When at={key.expires_at} /> : 'never'}</dd>
      </dl>
      <h2>What this key allows</h2>
      <p>The console offers only what the key’s scopes allow{key.scopes.includes('*') ? ': this key has every scope (*).' : '.'}</p>
      <table>
        <caption className="visually-hidden">Scopes of this key</caption>
        <thead>
          <tr>
            <th scope="col">Scope</th>
            <th scope="col">Lets the console</th>
            <th scope="col">This key</th>
          </tr>
        </thead>
        <tbody>
          {SCOPES.map(({ scope, allows }) => (
            <tr key={scope}>
              <td>
                <code>{scope}</code>
              </td>
              <td>{allows}</td>
              <td>{can(scope) ? <strong>allowed</strong> : <span className="muted">not allowed</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
