import { Fragment, useState } from 'react';
import { useDeliveries, useRecoverDeliveries, useRetryDelivery } from '../../hooks/use-webhooks';
import { Done, ErrorNotice, Status, usePager, When } from '../../components/ui';
import { PagedTable } from '../../components/DataTable';
import { type Delivery, type DeliveryStatus } from './types';
import { DeliveryDetails } from './DeliveryDetails';
import { WEBHOOK_EVENTS } from './EventChoice';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The delivery log: filters, a compact table, each delivery opening onto its request and every attempt's answer. */
export function DeliveryLog({ endpointId, enabled }: { endpointId: string; enabled: boolean }) {
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
      <PagedTable
        list={deliveries}
        pager={pager}
        label="Deliveries, newest first"
        className="log"
        columns={['Status', 'Event', 'Attempts', 'Created', 'Next attempt', 'Details']}
        empty={`No deliveries${status || eventType || searching ? ' match these filters' : ' yet'}.`}
        pagesLabel="Pages of deliveries"
        row={(delivery) => <DeliveryRow key={delivery.delivery_id} delivery={delivery} endpointId={endpointId} onRetried={retried} />}
      />
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
