import { useId, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { type Schemas } from '../../api/client';
import { useUsage } from '../../hooks/use-usage';
import { DocsLink, ErrorNotice, Id, When } from '../../components/ui';
import { DataTable } from '../../components/DataTable';
import { Fact, Facts } from '../../components/Facts';
import { SCOPES } from '../../scopes';
import { useSession } from '../../session';

type Usage = Schemas['UsageView'];
type UsageWindow = Usage['windows'][number];
type Failure = NonNullable<Usage['recent_failures']>[number];

/** What happened lately in the organisation (GET /api/v1/usage), then who is signed in and what its scopes allow. */
export function HomePage() {
  const usage = useUsage();
  const [windowName, setWindowName] = useState<UsageWindow['window']>('24h');
  const period = usage.data?.windows.find((candidate) => candidate.window === windowName);
  return (
    <>
      <h1>Overview</h1>
      <DocsLink tag="management">Usage in the API reference</DocsLink>
      <ErrorNotice error={usage.error} />
      {usage.data && period && (
        <>
          <section aria-labelledby="activity-heading">
            <div className="row spread">
              <h2 id="activity-heading">Activity</h2>
              <fieldset className="segmented">
                <legend className="visually-hidden">Period</legend>
                {usage.data.windows.map((candidate) => (
                  <label key={candidate.window}>
                    <input
                      type="radio"
                      name="usage-window"
                      checked={candidate.window === windowName}
                      onChange={() => setWindowName(candidate.window)}
                    />{' '}
                    {candidate.window === '24h' ? 'Last 24 hours' : 'Last 30 days'}
                  </label>
                ))}
              </fieldset>
            </div>
            <p className="hint">
              From <time dateTime={period.since}>{new Date(period.since).toLocaleString()}</time> to now; work counts in the period it was created in.
              Updated <When at={usage.data.generated_at} />.
            </p>
            <Figures period={period} />
          </section>
          {usage.data.recent_failures && <RecentFailures failures={usage.data.recent_failures} />}
          {usage.data.failing_endpoints && usage.data.failing_endpoints.length > 0 && (
            <section aria-labelledby="failing-heading">
              <h2 id="failing-heading">Failing webhook endpoints (24 h)</h2>
              <ul>
                {usage.data.failing_endpoints.map((endpoint) => (
                  <li key={endpoint.endpoint_id}>
                    <Link href={`/webhooks/${endpoint.endpoint_id}`}>{endpoint.url}</Link>: {endpoint.failed_24h} failed{' '}
                    {endpoint.failed_24h === 1 ? 'attempt' : 'attempts'}, {endpoint.failed_deliveries_24h} failed{' '}
                    {endpoint.failed_deliveries_24h === 1 ? 'delivery' : 'deliveries'}; last <When at={endpoint.last_failure_at} />
                    {endpoint.last_error && (
                      <>
                        {' '}
                        (<code>{endpoint.last_error}</code>)
                      </>
                    )}
                    {!endpoint.enabled && <> — disabled</>}
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
      <KeyFacts />
    </>
  );
}

const percent = (rate: number | null | undefined) => (rate === null || rate === undefined ? '—' : `${Math.round(rate * 1000) / 10}%`);
const ms = (value: number | null) => (value === null ? '—' : value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`);

function Figures({ period }: { period: UsageWindow }) {
  const { runs, documents, videos, deliveries, tokens } = period;
  return (
    <div className="stats">
      {runs && (
        <Stat title="Agent runs" href="/runs" figure={runs.total} detail={tally(runs, 'succeeded', 'failed', 'cancelled', 'in_progress')}>
          <p>
            Success rate <strong>{percent(runs.success_rate)}</strong>
            <br />
            Duration p50 {ms(runs.duration_ms.p50)}, p95 {ms(runs.duration_ms.p95)}
          </p>
        </Stat>
      )}
      {documents && <Stat title="Documents" href="/knowledge" figure={documents.total} detail={tally(documents, 'ready', 'failed', 'processing')} />}
      {videos && <Stat title="Videos" href="/videos" figure={videos.total} detail={tally(videos, 'completed', 'failed', 'in_progress')} />}
      {deliveries && (
        <Stat title="Webhook deliveries" href="/webhooks" figure={deliveries.total} detail={tally(deliveries, 'delivered', 'failed', 'pending')} />
      )}
      {tokens && (
        <Stat
          title="Tokens"
          href="/billing"
          figure={tokens.debited - tokens.refunded}
          detail={`used: ${tokens.debited.toLocaleString()} charged, ${tokens.refunded.toLocaleString()} refunded; ${tokens.granted.toLocaleString()} granted`}
        />
      )}
    </div>
  );
}

/** "3 ready, 1 failed, 0 in progress": the named counts, in this order. */
function tally<Counts extends object>(counts: Counts, ...names: Array<keyof Counts & string>): string {
  return names.map((name) => `${String(counts[name])} ${name.replace('_', ' ')}`).join(', ');
}

/** One figure of the period, named by its heading, which links to its page; then what it is made of. */
function Stat({ title, href, figure, detail, children }: { title: string; href: string; figure: number; detail: string; children?: ReactNode }) {
  const id = useId();
  return (
    <article className="stat" aria-labelledby={id}>
      <h3 id={id}>
        <Link href={href}>{title}</Link>
      </h3>
      <p className="big">{figure.toLocaleString()}</p>
      <p>{detail}</p>
      {children}
    </article>
  );
}

const FAILURE_KIND: Record<string, string> = {
  agent_run: 'Run',
  knowledge_document: 'Document',
  video_generation: 'Video',
  webhook_delivery: 'Webhook delivery',
};

function failureLink(failure: Failure): string | null {
  if (failure.kind === 'agent_run') return `/runs/${failure.id}`;
  if (failure.kind === 'knowledge_document') return `/knowledge/${failure.id}`;
  if (failure.kind === 'video_generation') return '/videos';
  return null;
}

function RecentFailures({ failures }: { failures: Failure[] }) {
  return (
    <section aria-labelledby="failures-heading">
      <h2 id="failures-heading">Recent failures</h2>
      {failures.length === 0 ? (
        <p>None: nothing has failed lately.</p>
      ) : (
        <DataTable label="Recent failures, newest first" columns={['What', 'Reason', 'When']}>
          {failures.map((failure) => {
            const href = failureLink(failure);
            const label = `${FAILURE_KIND[failure.kind] ?? failure.kind} ${failure.id.slice(0, 8)}`;
            return (
              <tr key={`${failure.kind}-${failure.id}`}>
                <td>{href ? <Link href={href}>{label}</Link> : label}</td>
                <td>{failure.reason ? <code>{failure.reason}</code> : <span className="muted">no reason recorded</span>}</td>
                <td>
                  <When at={failure.at} />
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
    </section>
  );
}

/** The signed-in key, and what its scopes let the console do. */
function KeyFacts() {
  const { key, can } = useSession();
  return (
    <section aria-labelledby="key-heading">
      <h2 id="key-heading">This key</h2>
      <Facts>
        <Fact term="Organisation">
          <Id value={key.org_id} label="the organisation id" />
        </Fact>
        <Fact term="API key">
          <code>{key.hint}</code> “{key.name}”
        </Fact>
        <Fact term="Expires">{key.expires_at ? <When at={key.expires_at} /> : 'never'}</Fact>
      </Facts>
      <p>The console offers only what the key’s scopes allow{key.scopes.includes('*') ? ': this key has every scope (*).' : '.'}</p>
      <details>
        <summary>What each scope allows</summary>
        <DataTable label="Scopes of this key" columns={['Scope', 'Lets the console', 'This key']}>
          {SCOPES.map(({ scope, allows }) => (
            <tr key={scope}>
              <td>
                <code>{scope}</code>
              </td>
              <td>{allows}</td>
              <td>{can(scope) ? <strong>allowed</strong> : <span className="muted">not allowed</span>}</td>
            </tr>
          ))}
        </DataTable>
      </details>
    </section>
  );
}
