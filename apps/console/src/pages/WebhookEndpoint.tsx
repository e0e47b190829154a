import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { call, type Schemas } from '../api/client';
import { ErrorNotice, Pager, SecretOnce, Status, usePager, When } from '../components/ui';

type DeliveryStatus = Schemas['WebhookDeliveryView']['status'];

/** One endpoint: enable/disable, rotate its secret, send a test event, delete; and its delivery log with every attempt. */
export function WebhookEndpointPage({ endpointId }: { endpointId: string }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const endpoint = useQuery({
    queryKey: ['webhook-endpoint', endpointId],
    queryFn: () => call((pylon) => pylon.webhooks.get(endpointId)),
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['webhook-endpoint', endpointId] });
    void queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', endpointId] });
  };
  const [secret, setSecret] = useState<string | null>(null);
  const [graceSeconds, setGraceSeconds] = useState('86400');
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => call((pylon) => pylon.webhooks.update(endpointId, { enabled })),
    onSuccess: refresh,
  });
  const rotate = useMutation({
    mutationFn: () => call((pylon) => pylon.webhooks.rotateSecret(endpointId, { grace_seconds: Number(graceSeconds) })),
    onSuccess: (rotated) => {
      setSecret(rotated.secret);
      refresh();
    },
  });
  const test = useMutation({
    mutationFn: () => call((pylon) => pylon.webhooks.sendTestEvent(endpointId)),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => call((pylon) => pylon.webhooks.delete(endpointId)),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['webhook-endpoints'] });
      navigate('/webhooks');
    },
  });
  const data = endpoint.data;
  return (
    <>
      <p>
        <Link href="/webhooks">← All endpoints</Link>
      </p>
      <h1>Webhook endpoint</h1>
      <ErrorNotice error={endpoint.error} />
      {data && (
        <>
          <dl className="facts">
            <dt>URL</dt>
            <dd>
              <code>{data.url}</code>
            </dd>
            <dt>Description</dt>
            <dd>{data.description ?? <span className="muted">—</span>}</dd>
            <dt>Events</dt>
            <dd>{data.events ? data.events.join(', ') : 'every event'}</dd>
            <dt>State</dt>
            <dd>
              <Status value={data.enabled ? 'enabled' : 'disabled'} />
              {data.disabled_reason && <> — {data.disabled_reason}</>}
            </dd>
            <dt>Previous secret signs until</dt>
            <dd>
              <When at={data.previous_secret_expires_at} />
            </dd>
          </dl>
          {secret && <SecretOnce label="New signing secret" secret={secret} onDone={() => setSecret(null)} />}
          <div className="toolbar" role="group" aria-label="Endpoint actions">
            <button type="button" onClick={() => test.mutate()} disabled={test.isPending || !data.enabled}>
              Send test event
            </button>
            <button type="button" onClick={() => toggle.mutate(!data.enabled)} disabled={toggle.isPending}>
              {data.enabled ? 'Disable' : 'Enable'}
            </button>
            <label>
              Old secret keeps signing for{' '}
              <select value={graceSeconds} onChange={(event) => setGraceSeconds(event.target.value)}>
                <option value="0">no time</option>
                <option value="3600">1 hour</option>
                <option value="86400">1 day</option>
              </select>
            </label>
            <button type="button" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
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
          {test.isSuccess && <p role="status">Test event sent: it appears in the log below.</p>}
          <ErrorNotice error={test.error ?? toggle.error ?? rotate.error ?? remove.error} />
          <Deliveries endpointId={endpointId} />
        </>
      )}
    </>
  );
}

function Deliveries({ endpointId }: { endpointId: string }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const pager = usePager();
  const deliveries = useQuery({
    queryKey: ['webhook-deliveries', endpointId, status, pager.cursor],
    queryFn: () => call((pylon) => pylon.webhooks.deliveries(endpointId, { limit: 20, ...(status ? { status } : {}) }).page(pager.cursor)),
    refetchInterval: (query) => (query.state.data?.data.some((delivery) => delivery.status === 'pending') ? 1_000 : 10_000),
  });
  const retry = useMutation({
    mutationFn: (deliveryId: string) => call((pylon) => pylon.webhooks.retryDelivery(endpointId, deliveryId)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', endpointId] }),
  });
  return (
    <section aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Delivery log</h2>
      <label htmlFor="delivery-status">Status</label>{' '}
      <select
        id="delivery-status"
        value={status}
        onChange={(event) => {
          setStatus(event.target.value as DeliveryStatus | '');
          pager.reset();
        }}
      >
        <option value="">any</option>
        <option value="pending">pending</option>
        <option value="delivered">delivered</option>
        <option value="failed">failed</option>
      </select>
      <ErrorNotice error={deliveries.error ?? retry.error} />
      {deliveries.data?.data.length === 0 && <p>No deliveries{status ? ` with status ${status}` : ''} yet.</p>}
      <ol className="deliveries">
        {deliveries.data?.data.map((delivery) => (
          <li key={delivery.delivery_id} className="card delivery">
            <h3>
              <code>{delivery.event_type}</code> <Status value={delivery.status} />
            </h3>
            <p className="hint">
              Event <code>{delivery.event_id}</code> · created <When at={delivery.created_at} />
              {delivery.delivered_at && (
                <>
                  {' '}
                  · delivered <When at={delivery.delivered_at} />
                </>
              )}
              {delivery.next_attempt_at && (
                <>
                  {' '}
                  · next attempt <When at={delivery.next_attempt_at} />
                </>
              )}
            </p>
            <table>
              <caption>Attempts ({delivery.attempt_count})</caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Started</th>
                  <th scope="col">HTTP status</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Response or error</th>
                </tr>
              </thead>
              <tbody>
                {delivery.attempts.map((attempt) => (
                  <tr key={attempt.attempt}>
                    <td>{attempt.attempt}</td>
                    <td>
                      <When at={attempt.started_at} />
                    </td>
                    <td>{attempt.status_code ?? '—'}</td>
                    <td>{attempt.duration_ms} ms</td>
                    <td>
                      <code className="clip">{attempt.error ?? attempt.response_excerpt ?? ''}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {delivery.status !== 'pending' && (
              <button type="button" onClick={() => retry.mutate(delivery.delivery_id)} disabled={retry.isPending}>
                Send again
              </button>
            )}
          </li>
        ))}
      </ol>
      <Pager pager={pager} nextCursor={deliveries.data?.next_cursor} label="Pages of deliveries" />
    </section>
  );
}
