import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { call } from '../api/client';
import { followRunEvents, type RunEvent } from '../api/run-events';
import { DocsLink, ErrorNotice, Id, ScopeNote, Status, When } from '../components/ui';
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
      <DocsLink tag="agent runs">Agent runs in the API reference</DocsLink>
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
              <Id value={data.run_id} label="the run id" />
            </dd>
            <dt>Agent version</dt>
            <dd>
              <VersionName versionId={data.agent_version_id} />
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
        <h2 id="events-heading">Timeline {live ? <span className="status status-running">live</span> : null}</h2>
        <ErrorNotice error={streamError} />
        <ol className="timeline" aria-label="What the run did, in order">
          {timeline(events).map((step) => (
            <li key={step.seq} className={`step step-${step.kind}`}>
              <TimelineStep step={step} />
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}

type Step =
  | { kind: 'status'; seq: number; status: string; detail?: string }
  | { kind: 'output'; seq: number; chars: number; pieces: number }
  | { kind: 'tool_call'; seq: number; name: string; args: unknown }
  | { kind: 'tool_result'; seq: number; name: string; query?: string; docIds: string[]; error?: string };

/** Tool arguments arrive as the model's JSON text. */
function parsed(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/** The events as steps a person reads: status changes, tool calls and what they found, and the output deltas joined into text. */
function timeline(events: RunEvent[]): Step[] {
  const steps: Step[] = [];
  for (const event of events) {
    const last = steps[steps.length - 1];
    if (event.type === 'output_delta') {
      const text = String(event.data.text ?? '');
      if (last?.kind === 'output') {
        last.chars += text.length;
        last.pieces++;
      } else steps.push({ kind: 'output', seq: event.seq, chars: text.length, pieces: 1 });
    } else if (event.type === 'tool_call') {
      steps.push({ kind: 'tool_call', seq: event.seq, name: String(event.data.name), args: parsed(event.data.arguments) });
    } else if (event.type === 'tool_result') {
      const docIds = Array.isArray(event.data.doc_ids) ? event.data.doc_ids.map(String) : [];
      steps.push({
        kind: 'tool_result',
        seq: event.seq,
        name: String(event.data.name),
        docIds,
        ...(typeof event.data.query === 'string' ? { query: event.data.query } : {}),
        ...(typeof event.data.error === 'string' ? { error: event.data.error } : {}),
      });
    } else {
      const error = typeof event.data.error === 'string' ? event.data.error : undefined;
      steps.push({ kind: 'status', seq: event.seq, status: event.type, ...(error ? { detail: error } : {}) });
    }
  }
  return steps;
}

const STATUS_WORDS: Record<string, string> = {
  queued: 'Queued',
  running: 'Started on a worker',
  succeeded: 'Succeeded',
  failed: 'Failed',
};

function TimelineStep({ step }: { step: Step }) {
  const when = <span className="hint">event {step.seq}</span>;
  switch (step.kind) {
    case 'status':
      return (
        <>
          <Status value={step.status} /> <strong>{STATUS_WORDS[step.status] ?? step.status}</strong>
          {step.detail && (
            <>
              : <code>{step.detail}</code>
            </>
          )}{' '}
          {when}
        </>
      );
    case 'output':
      return (
        <>
          <strong>Wrote the output</strong> ({step.chars.toLocaleString()} characters in {step.pieces} {step.pieces === 1 ? 'piece' : 'pieces'}){' '}
          {when}
        </>
      );
    case 'tool_call':
      return (
        <>
          <strong>Called {step.name}</strong> {when}
          <pre className="text">{JSON.stringify(step.args, null, 2)}</pre>
        </>
      );
    case 'tool_result':
      return (
        <>
          <strong>{step.name}</strong>{' '}
          {step.error ? (
            <>
              failed: <code>{step.error}</code>
            </>
          ) : (
            <>
              {step.query !== undefined && <>for “{step.query}” </>}found {step.docIds.length} {step.docIds.length === 1 ? 'document' : 'documents'}
              {step.docIds.length > 0 && ': '}
              {step.docIds.map((docId, index) => (
                <span key={docId}>
                  {index > 0 && ', '}
                  <Link href={`/knowledge/${docId}`}>
                    <CitedTitle docId={docId} />
                  </Link>
                </span>
              ))}
            </>
          )}{' '}
          {when}
        </>
      );
  }
}

/** A cited document's title (its id until known, or when this key cannot read knowledge). */
function CitedTitle({ docId }: { docId: string }) {
  const { can } = useSession();
  const document = useQuery({
    queryKey: ['document', docId],
    enabled: can('kb:read'),
    queryFn: () => call((pylon) => pylon.knowledge.documents.get(docId)),
    staleTime: 60_000,
  });
  return <>{document.data?.title ?? <code>{docId.slice(0, 8)}</code>}</>;
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

/** The version a run ran, as "agent v2 · model" linked to its agent (needs agents:manage), or its id. */
function VersionName({ versionId }: { versionId: string }) {
  const { can } = useSession();
  const version = useQuery({
    queryKey: ['agent-version', versionId],
    enabled: can('agents:manage'),
    queryFn: () => call((pylon) => pylon.agents.getVersion(versionId)),
    staleTime: 60_000,
  });
  if (!version.data) return <Id value={versionId} label="the agent version id" />;
  return (
    <>
      <Link href={`/agents/${version.data.agent_id}`}>
        v{version.data.version} · <code>{version.data.model}</code>
      </Link>{' '}
      <Id value={versionId} label="the agent version id" />
    </>
  );
}
