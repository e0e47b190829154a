import { Fragment, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import type { Schemas } from '../api/client';
import {
  useDeleteWebhookEndpoint,
  useDeliveries,
  useRecoverDeliveries,
  useRetryDelivery,
  useRotateWebhookSecret,
  useSendTestEvent,
  useUpdateWebhookEndpoint,
  useWebhookEndpoint,
} from '../hooks/use-webhooks';
import { DocsLink, Done, ErrorNotice, Id, Pager, SecretOnce, Status, TableScroll, usePager, When } from '../components/ui';
import { EventChoice, WEBHOOK_EVENTS, type WebhookEvent } from './Webhooks';

type Endpoint = Schemas['WebhookEndpointView'];
type Delivery = Schemas['WebhookDeliveryView'];
type Attempt = Delivery['attempts'][number];
type DeliveryStatus = Delivery['status'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One endpoint: edit, enable/disable, rotate its secret, send a test event, delete; and its delivery log. */
export function WebhookEndpointPage({ endpointId }: { endpointId: string }) {
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
          <dl className="facts">
            <dt>URL</dt>
            <dd>
              <code>{endpoint.url}</code>
            </dd>
            <dt>Description</dt>
            <dd>{endpoint.description || <span className="muted">—</span>}</dd>
            <dt>Events</dt>
            <dd>{endpoint.events ? endpoint.events.join(', ') : 'every event'}</dd>
            <dt>State</dt>
            <dd>
              <Status value={endpoint.enabled ? 'enabled' : 'disabled'} />
              {endpoint.disabled_reason && <> — {endpoint.disabled_reason}</>}
            </dd>
            <dt>Endpoint id</dt>
            <dd>
              <Id value={endpointId} label="the endpoint id" />
            </dd>
            <dt>Previous secret signs until</dt>
            <dd>
              <When at={endpoint.previous_secret_expires_at} />
            </dd>
          </dl>
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

/** The delivery log: filters, a compact table, each delivery opening onto its request and every attempt's answer. */
function DeliveryLog({ endpointId, enabled }: { endpointId: string; enabled: boolean }) {
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const [eventType, setEventType] = useState('');
  const [search, setSearch] = useState('');
  const [done, setDone] = useState('');
  const pager = usePager();
  const eventId = search.trim();
  const searching = eventId !== '';
  const validSearch = !searching || UUID.test(eventId);
  const deliveries = useDeliveries(endpointId, { status, eventType, eventId: searching && validSearch ? eventId : '' }, pager.cursor);
  const changed = () => {
    pager.reset();
    setDone('');
  };
  const retried = setDone;
  return (
    <section aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Delivery log</h2>
      <div className="toolbar filters" role="group" aria-label="Filter deliveries">
        <label>
          Status{' '}
          <select
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as DeliveryStatus | '');
              changed();
            }}
          >
            <option value="">any</option>
            <option value="pending">pending</option>
            <option value="delivered">delivered</option>
            <option value="failed">failed</option>
          </select>
        </label>
        <label>
          Event type{' '}
          <select
            value={eventType}
            onChange={(event) => {
              setEventType(event.target.value);
              changed();
            }}
          >
            <option value="">any</option>
            {[...WEBHOOK_EVENTS, 'webhook_endpoint.test'].map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label>
          Event or message id{' '}
          <input
            type="search"
            value={search}
            aria-invalid={!validSearch}
            aria-describedby="delivery-search-hint"
            onChange={(event) => {
              setSearch(event.target.value);
              changed();
            }}
            placeholder="webhook-id"
          />
        </label>
      </div>
      <p id="delivery-search-hint" className={validSearch ? 'hint' : 'notice error'}>
        {validSearch
          ? 'The message id is the event id: the webhook-id header your receiver got.'
          : 'An event id is a UUID, like the webhook-id header.'}
      </p>
      <Recover endpointId={endpointId} enabled={enabled} onRecovered={retried} />
      <Done>{done}</Done>
      <ErrorNotice error={deliveries.error} />
      {deliveries.data && deliveries.data.data.length > 0 && (
        <TableScroll label="Deliveries, newest first">
          <table className="log">
            <caption className="visually-hidden">Deliveries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Event</th>
                <th scope="col">Attempts</th>
                <th scope="col">Created</th>
                <th scope="col">Next attempt</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.data.map((delivery) => (
                <DeliveryRow key={delivery.delivery_id} delivery={delivery} endpointId={endpointId} onRetried={retried} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {deliveries.data?.data.length === 0 && <p>No deliveries{status || eventType || searching ? ' match these filters' : ' yet'}.</p>}
      <Pager pager={pager} nextCursor={deliveries.data?.next_cursor} label="Pages of deliveries" />
    </section>
  );
}

function DeliveryRow({ delivery, endpointId, onRetried }: { delivery: Delivery; endpointId: string; onRetried: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const retry = useRetryDelivery(endpointId, {
    onSuccess: () =>
      onRetried(
        `${delivery.status === 'delivered' ? 'Sent again' : 'Retrying now'}: a new attempt of ${delivery.event_type} ${delivery.event_id.slice(0, 8)} is on its way; it appears in its details.`,
      ),
  });
  const detailsId = `delivery-${delivery.delivery_id}`;
  return (
    <Fragment>
      <tr className="delivery" data-delivery={delivery.delivery_id}>
        <td data-label="Status">
          <Status value={delivery.status} />
        </td>
        <td data-label="Event">
          <code>{delivery.event_type}</code>
          <div className="hint">
            <code title={delivery.event_id}>{delivery.event_id.slice(0, 8)}</code>
          </div>
        </td>
        <td data-label="Attempts">{delivery.attempt_count}</td>
        <td data-label="Created">
          <When at={delivery.created_at} />
        </td>
        <td data-label="Next attempt">{delivery.status === 'pending' ? <When at={delivery.next_attempt_at} /> : <span className="muted">—</span>}</td>
        <td className="actions">
          <button type="button" className="quiet" aria-expanded={open} aria-controls={detailsId} onClick={() => setOpen(!open)}>
            {open ? 'Hide' : 'Show'}{' '}
            <span className="visually-hidden">
              delivery of {delivery.event_type} {delivery.event_id}
            </span>
          </button>
          <button type="button" onClick={() => retry.mutate(delivery.delivery_id)} disabled={retry.isPending}>
            {delivery.status === 'delivered' ? 'Send again' : 'Retry now'}
          </button>
        </td>
      </tr>
      {open && (
        <tr id={detailsId} className="delivery-details">
          <td colSpan={6}>
            <DeliveryDetails delivery={delivery} />
          </td>
        </tr>
      )}
      {retry.error ? (
        <tr>
          <td colSpan={6}>
            <ErrorNotice error={retry.error} />
          </td>
        </tr>
      ) : null}
    </Fragment>
  );
}

function DeliveryDetails({ delivery }: { delivery: Delivery }) {
  const request = delivery.request;
  return (
    <div className="details">
      <p>
        Event <Id value={delivery.event_id} label="the event id" /> · delivery <Id value={delivery.delivery_id} label="the delivery id" />
        {delivery.delivered_at && (
          <>
            {' '}
            · delivered <When at={delivery.delivered_at} />
          </>
        )}
      </p>
      <h3>Request</h3>
      {request ? (
        <>
          <Headers headers={request.headers} label="Request headers (every attempt)" />
          <pre className="text payload" aria-label="Request payload">
            {pretty(request.body)}
          </pre>
        </>
      ) : (
        <p className="muted">The event is no longer stored.</p>
      )}
      <h3>Attempts ({delivery.attempt_count})</h3>
      {delivery.attempts.length === 0 && <p className="muted">No attempt yet.</p>}
      <ol className="attempts">
        {delivery.attempts.map((attempt) => (
          <li key={attempt.attempt}>
            <AttemptDetails attempt={attempt} />
          </li>
        ))}
      </ol>
    </div>
  );
}

function AttemptDetails({ attempt }: { attempt: Attempt }) {
  const ok = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
  return (
    <>
      <p>
        <strong>Attempt {attempt.attempt}</strong> · <When at={attempt.started_at} /> ·{' '}
        {attempt.status_code !== null ? <Status value={ok ? 'delivered' : 'failed'} /> : null} {attempt.status_code ?? 'no answer'} ·{' '}
        {attempt.duration_ms} ms
      </p>
      {attempt.error && (
        <p className="failure-reason">
          Error: <code>{attempt.error}</code>
        </p>
      )}
      {attempt.request_headers && <Headers headers={attempt.request_headers} label={`Headers sent on attempt ${attempt.attempt}`} />}
      {attempt.response_headers && <Headers headers={attempt.response_headers} label={`Response headers of attempt ${attempt.attempt}`} />}
      {attempt.response_excerpt !== null && (
        <pre className="text" aria-label={`Response body of attempt ${attempt.attempt}`}>
          {attempt.response_excerpt || '(empty)'}
        </pre>
      )}
    </>
  );
}

function Headers({ headers, label }: { headers: Record<string, string>; label: string }) {
  return (
    <details className="headers">
      <summary>{label}</summary>
      <dl className="facts">
        {Object.entries(headers).map(([name, value]) => (
          <Fragment key={name}>
            <dt>
              <code>{name}</code>
            </dt>
            <dd>
              <code>{value}</code>
            </dd>
          </Fragment>
        ))}
      </dl>
    </details>
  );
}

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** Re-sends every failed delivery since a time, in one call. */
function Recover({ endpointId, enabled, onRecovered }: { endpointId: string; enabled: boolean; onRecovered: (message: string) => void }) {
  const [since, setSince] = useState(() => toLocalInput(new Date(Date.now() - 24 * 3600_000)));
  const recover = useRecoverDeliveries(endpointId, {
    onSuccess: (result) =>
      onRecovered(
        result.recovered === 0
          ? 'No failed deliveries since then: nothing to recover.'
          : `Recovering ${result.recovered} failed ${result.recovered === 1 ? 'delivery' : 'deliveries'}${result.has_more ? ' (more remain: recover again)' : ''}.`,
      ),
  });
  return (
    <form
      className="row"
      aria-label="Recover failed deliveries"
      onSubmit={(event) => {
        event.preventDefault();
        recover.mutate(new Date(since).toISOString());
      }}
    >
      <label htmlFor="recover-since">Recover failed deliveries since</label>
      <input id="recover-since" type="datetime-local" required value={since} onChange={(event) => setSince(event.target.value)} />
      <button type="submit" disabled={recover.isPending || !enabled}>
        Recover
      </button>
      <ErrorNotice error={recover.error} />
    </form>
  );
}

function toLocalInput(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}
