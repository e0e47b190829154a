import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { call } from '../api/client';
import { followRunEvents, type RunEvent } from '../api/run-events';
import { ErrorNotice, ScopeNote, Status, When } from '../components/ui';
import { useSession } from '../session';

/** One run: its input, its output as it is produced (the live event stream), and cancel. */
export function RunPage({ runId }: { runId: string }) {
  const { can } = useSession();
  const queryClient = useQueryClient();
  const run = useQuery({
    queryKey: ['run', runId],
    queryFn: () => call((pylon) => pylon.agentRuns.get(runId)),
  });
  const { events, streamError, live } = useRunEvents(runId, () => void queryClient.invalidateQueries({ queryKey: ['run', runId] }));
  const cancel = useMutation({
    mutationFn: () => call((pylon) => pylon.agentRuns.cancel(runId)),
    onSuccess: (cancelled) => queryClient.setQueryData(['run', runId], cancelled),
  });
  const streamed = events
    .filter((event) => event.type === 'output_delta')
    .map((event) => String(event.data.text ?? ''))
    .join('');
  const data = run.data;
  const finished = data?.status === 'succeeded' || data?.status === 'failed';
  const output = data?.output ?? (streamed || null);

  return (
    <>
      <p>
        <Link href="/runs">← All runs</Link>
      </p>
      <h1>
        Run <code>{runId.slice(0, 8)}</code>
      </h1>
      <ErrorNotice error={run.error} />
      {data && (
        <>
          <dl className="facts">
            <dt>Status</dt>
            <dd>
              <Status value={data.status} />
              {data.error && (
                <>
                  {' '}
                  — error: <code>{data.error}</code>
                </>
              )}
            </dd>
            <dt>Run id</dt>
            <dd>
              <code>{data.run_id}</code>
            </dd>
            <dt>Agent version</dt>
            <dd>
              <code>{data.agent_version_id}</code>
            </dd>
            <dt>Created</dt>
            <dd>
              <When at={data.created_at} />
            </dd>
            <dt>Updated</dt>
            <dd>
              <When at={data.updated_at} />
            </dd>
          </dl>
          {!finished &&
            (can('runs:create') ? (
              <p>
                <button type="button" className="danger" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
                  Cancel run
                </button>
              </p>
            ) : (
              <ScopeNote>Cancelling needs the runs:create scope, which this key does not have.</ScopeNote>
            ))}
          <ErrorNotice error={cancel.error} />
          <h2>Input</h2>
          <pre className="text">{data.input}</pre>
          <h2>Output</h2>
          <pre className="text" aria-live="polite" data-testid="run-output">
            {output ?? (finished ? '(none)' : 'Waiting for output…')}
          </pre>
        </>
      )}
      <section aria-labelledby="events-heading">
        <h2 id="events-heading">Events {live ? <span className="status status-running">live</span> : null}</h2>
        <ErrorNotice error={streamError} />
        <ol className="events">
          {events.map((event) => (
            <li key={event.seq}>
              <span className="seq">#{event.seq}</span> <Status value={event.type} /> <code className="event-data">{summarise(event)}</code>
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}

function summarise(event: RunEvent): string {
  if (event.type === 'output_delta') return JSON.stringify(event.data.text);
  if (event.type === 'succeeded' || event.type === 'failed') return `run ${event.type}`;
  return JSON.stringify(event.data);
}

/** The run's events from its SSE stream, kept in order; `onEnd` when the terminal event arrives. */
function useRunEvents(runId: string, onEnd: () => void) {
  const [events, setEvents] = useState<RunEvent[]>([]);
  const [streamError, setStreamError] = useState<unknown>(null);
  const [live, setLive] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    setEvents([]);
    setStreamError(null);
    setLive(true);
    followRunEvents(runId, (event) => setEvents((seen) => [...seen, event]), controller.signal)
      .then(
        () => onEnd(),
        (error: unknown) => setStreamError(error),
      )
      .finally(() => !controller.signal.aborted && setLive(false));
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runId]);
  return { events, streamError, live };
}
