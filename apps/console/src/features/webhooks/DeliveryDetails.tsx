import { Fragment } from 'react';
import { Id, Status, When } from '../../components/ui';
import { type Attempt, type Delivery } from './types';

export function DeliveryDetails({ delivery }: { delivery: Delivery }) {
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
