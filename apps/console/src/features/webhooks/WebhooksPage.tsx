import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import type { Schemas } from '../../api/client';
import { useCreateWebhookEndpoint, useWebhookEndpoints } from '../../hooks/use-webhooks';
import { DocsLink, SecretOnce, Status, usePager, When } from '../../components/ui';
import { PagedTable } from '../../components/DataTable';
import { Submit } from '../../components/Submit';
import { useSession } from '../../session';
import { EventChoice, type WebhookEvent } from './EventChoice';

/** Webhook endpoints: list, and create (the signing secret shown once). */
export function WebhooksPage() {
  const pager = usePager();
  const endpoints = useWebhookEndpoints(pager.cursor);
  return (
    <>
      <h1>Webhooks</h1>
      <DocsLink tag="webhooks">Webhooks in the API reference</DocsLink>
      <CreateEndpoint />
      <section aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading">Endpoints</h2>
        <PagedTable
          list={endpoints}
          pager={pager}
          label="Webhook endpoints"
          columns={['URL', 'Events', 'State', 'Created']}
          empty="No endpoints yet."
          pagesLabel="Pages of endpoints"
          row={(endpoint) => (
            <tr key={endpoint.endpoint_id}>
              <td>
                <Link href={`/webhooks/${endpoint.endpoint_id}`}>{endpoint.url}</Link>
                {endpoint.description && <div className="hint">{endpoint.description}</div>}
              </td>
              <td>
                {endpoint.events
                  ? endpoint.events.map((event) => (
                      <code key={event} className="tag">
                        {event}
                      </code>
                    ))
                  : 'every event'}
              </td>
              <td>
                <Status value={endpoint.enabled ? 'enabled' : 'disabled'} />
                {endpoint.disabled_reason && <div className="hint">{endpoint.disabled_reason}</div>}
              </td>
              <td>
                <When at={endpoint.created_at} />
              </td>
            </tr>
          )}
        />
      </section>
    </>
  );
}

function CreateEndpoint() {
  const { orgId } = useSession();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>([]);
  const [secret, setSecret] = useState<Schemas['WebhookEndpointWithSecret'] | null>(null);
  const create = useCreateWebhookEndpoint({
    onSuccess: (created) => {
      setSecret(created);
      setUrl('');
      setDescription('');
      setEvents([]);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ org_id: orgId, url, ...(events.length > 0 ? { events } : {}), ...(description ? { description } : {}) });
  };
  return (
    <section aria-labelledby="create-endpoint-heading">
      <h2 id="create-endpoint-heading">Add an endpoint</h2>
      {secret && <SecretOnce label={`Signing secret of ${secret.url}`} secret={secret.secret} onDone={() => setSecret(null)} />}
      <form onSubmit={submit} className="stack">
        <label htmlFor="endpoint-url">URL</label>
        <input
          id="endpoint-url"
          type="url"
          required
          maxLength={2048}
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          placeholder="https://example.com/pylon-webhooks"
        />
        <label htmlFor="endpoint-description">Description (optional)</label>
        <input id="endpoint-description" maxLength={500} value={description} onChange={(event) => setDescription(event.target.value)} />
        <EventChoice chosen={events} onChange={setEvents} />
        <Submit disabled={create.isPending} error={create.error}>
          Add endpoint
        </Submit>
      </form>
    </section>
  );
}
