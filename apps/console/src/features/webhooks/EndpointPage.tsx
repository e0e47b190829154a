import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import {
  useDeleteWebhookEndpoint,
  useRotateWebhookSecret,
  useSendTestEvent,
  useUpdateWebhookEndpoint,
  useWebhookEndpoint,
} from '../../hooks/use-webhooks';
import { DocsLink, Done, ErrorNotice, Id, SecretOnce, Status, When } from '../../components/ui';
import { Fact, Facts } from '../../components/Facts';
import { EventChoice, type WebhookEvent } from './EventChoice';
import { type Endpoint } from './types';
import { DeliveryLog } from './DeliveryLog';

/** One endpoint: edit, enable/disable, rotate its secret, send a test event, delete; and its delivery log. */
export function EndpointPage({ endpointId }: { endpointId: string }) {
  const endpoint = useWebhookEndpoint(endpointId);
  return (
    <>
      <p>
        <Link href="/webhooks">← All endpoints</Link>
      </p>
      <h1>Webhook endpoint</h1>
      <DocsLink tag="webhooks">Webhooks in the API reference</DocsLink>
      <ErrorNotice error={endpoint.error} />
      {endpoint.data && (
        <>
          <EndpointSettings endpoint={endpoint.data} />
          <DeliveryLog endpointId={endpointId} enabled={endpoint.data.enabled} />
        </>
      )}
    </>
  );
}

function EndpointSettings({ endpoint }: { endpoint: Endpoint }) {
  const endpointId = endpoint.endpoint_id;
  const [, navigate] = useLocation();
  const [editing, setEditing] = useState(false);
  const [done, setDone] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [graceSeconds, setGraceSeconds] = useState('86400');
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const toggle = useUpdateWebhookEndpoint(endpointId, {
    onSuccess: (updated) =>
      setDone(
        updated.enabled ? 'Endpoint enabled: new events are delivered to it.' : 'Endpoint disabled: nothing is sent to it until it is enabled.',
      ),
  });
  const rotate = useRotateWebhookSecret(endpointId, {
    onSuccess: (rotated) => {
      setSecret(rotated.secret);
      setDone('Secret rotated.');
    },
  });
  const test = useSendTestEvent(endpointId, { onSuccess: () => setDone('Test event sent: it appears in the delivery log below.') });
  const remove = useDeleteWebhookEndpoint(endpointId, { onSuccess: () => navigate('/webhooks') });
  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">Settings</h2>
      {editing ? (
        <EditEndpoint
          endpoint={endpoint}
          onDone={(saved) => {
            setEditing(false);
            if (saved) setDone('Endpoint saved.');
          }}
        />
      ) : (
        <>
          <Facts>
            <Fact term="URL">
              <code>{endpoint.url}</code>
            </Fact>
            <Fact term="Description">{endpoint.description || <span className="muted">—</span>}</Fact>
            <Fact term="Events">{endpoint.events ? endpoint.events.join(', ') : 'every event'}</Fact>
            <Fact term="State">
              <Status value={endpoint.enabled ? 'enabled' : 'disabled'} />
              {endpoint.disabled_reason && <> — {endpoint.disabled_reason}</>}
            </Fact>
            <Fact term="Endpoint id">
              <Id value={endpointId} label="the endpoint id" />
            </Fact>
            <Fact term="Previous secret signs until">
              <When at={endpoint.previous_secret_expires_at} />
            </Fact>
          </Facts>
          <p>
            <button type="button" onClick={() => setEditing(true)}>
              Edit endpoint
            </button>
          </p>
        </>
      )}
      {secret && <SecretOnce label="New signing secret" secret={secret} onDone={() => setSecret(null)} />}
      <div className="toolbar" role="group" aria-label="Endpoint actions">
        <button type="button" onClick={() => test.mutate()} disabled={test.isPending || !endpoint.enabled}>
          Send test event
        </button>
        <button type="button" onClick={() => toggle.mutate({ enabled: !endpoint.enabled })} disabled={toggle.isPending}>
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </button>
        <label>
          Old secret keeps signing for{' '}
          <select value={graceSeconds} onChange={(event) => setGraceSeconds(event.target.value)}>
            <option value="0">no time</option>
            <option value="3600">1 hour</option>
            <option value="86400">1 day</option>
          </select>
        </label>
        <button type="button" onClick={() => rotate.mutate(Number(graceSeconds))} disabled={rotate.isPending}>
          Rotate secret
        </button>
        {confirmingDelete ? (
          <span role="group" aria-label="Confirm deleting this endpoint">
            Delete it? No more deliveries go to it.{' '}
            <button type="button" className="danger" onClick={() => remove.mutate()}>
              Yes, delete
            </button>{' '}
            <button type="button" onClick={() => setConfirmingDelete(false)}>
              Keep it
            </button>
          </span>
        ) : (
          <button type="button" className="danger" onClick={() => setConfirmingDelete(true)}>
            Delete endpoint
          </button>
        )}
      </div>
      <Done>{done}</Done>
      <ErrorNotice error={test.error ?? toggle.error ?? rotate.error ?? remove.error} />
    </section>
  );
}

function EditEndpoint({ endpoint, onDone }: { endpoint: Endpoint; onDone: (saved: boolean) => void }) {
  const [url, setUrl] = useState(endpoint.url);
  const [description, setDescription] = useState(endpoint.description ?? '');
  const [events, setEvents] = useState<WebhookEvent[]>((endpoint.events ?? []) as WebhookEvent[]);
  const save = useUpdateWebhookEndpoint(endpoint.endpoint_id, { onSuccess: () => onDone(true) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ url, description: description.trim(), events: events.length > 0 ? events : null });
  };
  return (
    <form onSubmit={submit} className="stack" aria-label="Edit endpoint">
      <label htmlFor="edit-url">URL</label>
      <input id="edit-url" type="url" required maxLength={2048} value={url} onChange={(event) => setUrl(event.target.value)} />
      <label htmlFor="edit-description">Description</label>
      <input id="edit-description" maxLength={500} value={description} onChange={(event) => setDescription(event.target.value)} />
      <EventChoice chosen={events} onChange={setEvents} />
      <div className="row">
        <button type="submit" disabled={save.isPending}>
          Save
        </button>
        <button type="button" className="quiet" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
      <ErrorNotice error={save.error} />
    </form>
  );
}
