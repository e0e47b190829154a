import { Link } from 'wouter';
import type { RunEvent } from '../api/run-events';
import { useCitedDocument } from '../hooks/use-knowledge';
import { useSession } from '../session';
import { Status } from './ui';

/** A run's events as steps a person reads, in order, as an ordered list named `label`. */
export function RunTimeline({ events, label }: { events: RunEvent[]; label: string }) {
  return (
    <ol className="timeline" aria-label={label}>
      {timeline(events).map((step) => (
        <li key={step.seq} className={`step step-${step.kind}`}>
          <TimelineStep step={step} />
        </li>
      ))}
    </ol>
  );
}

type Step =
  | { kind: 'status'; seq: number; status: string; detail?: string }
  | { kind: 'history'; seq: number; items: number; omitted: number }
  | { kind: 'output'; seq: number; chars: number; pieces: number }
  | { kind: 'tool_call'; seq: number; name: string; args: unknown }
  | { kind: 'waiting'; seq: number; action: string; names: string[] }
  | { kind: 'approval'; seq: number; name: string; approved: boolean; reason?: string }
  | { kind: 'tool_output'; seq: number; name: string; output: string }
  | { kind: 'tool_result'; seq: number; name: string; query?: string; docIds: string[]; error?: string };

/** Tool arguments arrive as the model's JSON text. */
export function parsed(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/** The events as steps: status changes, the history seen, tool calls, waits and answers, what tools found, and the output deltas joined. */
function timeline(events: RunEvent[]): Step[] {
  const steps: Step[] = [];
  for (const event of events) {
    const last = steps[steps.length - 1];
    const data = event.data;
    if (event.type === 'output_delta') {
      const text = String(data.text ?? '');
      if (last?.kind === 'output') {
        last.chars += text.length;
        last.pieces++;
      } else steps.push({ kind: 'output', seq: event.seq, chars: text.length, pieces: 1 });
    } else if (event.type === 'history') {
      steps.push({ kind: 'history', seq: event.seq, items: Number(data.items ?? 0), omitted: Number(data.omitted ?? 0) });
    } else if (event.type === 'tool_call') {
      steps.push({ kind: 'tool_call', seq: event.seq, name: String(data.name), args: parsed(data.arguments) });
    } else if (event.type === 'requires_action') {
      const calls = Array.isArray(data.tool_calls) ? (data.tool_calls as Array<{ name?: unknown }>) : [];
      steps.push({ kind: 'waiting', seq: event.seq, action: String(data.type), names: calls.map((call) => String(call.name)) });
    } else if (event.type === 'tool_approval') {
      steps.push({
        kind: 'approval',
        seq: event.seq,
        name: String(data.name),
        approved: data.approved === true,
        ...(typeof data.reason === 'string' && data.reason ? { reason: data.reason } : {}),
      });
    } else if (event.type === 'tool_result' && typeof data.output === 'string') {
      steps.push({ kind: 'tool_output', seq: event.seq, name: String(data.name), output: data.output });
    } else if (event.type === 'tool_result') {
      const docIds = Array.isArray(data.doc_ids) ? data.doc_ids.map(String) : [];
      steps.push({
        kind: 'tool_result',
        seq: event.seq,
        name: String(data.name),
        docIds,
        ...(typeof data.query === 'string' ? { query: data.query } : {}),
        ...(typeof data.error === 'string' ? { error: data.error } : {}),
      });
    } else if (event.type === 'output_repair') {
      steps.push({ kind: 'status', seq: event.seq, status: event.type, detail: String(data.fault ?? '') });
    } else {
      const error = typeof data.error === 'string' ? data.error : undefined;
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
  output_repair: 'The answer did not match the response format; the model was asked once more',
};

function plural(count: number, one: string, many: string): string {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}

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
    case 'history':
      if (step.items === 0 && step.omitted === 0) {
        return (
          <>
            <strong>The conversation’s first turn</strong>: no earlier items {when}
          </>
        );
      }
      return (
        <>
          <strong>Saw {plural(step.items, 'earlier item', 'earlier items')} of the conversation</strong>
          {step.omitted > 0 && <> ({plural(step.omitted, 'older one', 'older ones')} left out, for the model’s context)</>} {when}
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
    case 'waiting':
      return (
        <>
          <Status value="waiting" />{' '}
          <strong>
            {step.action === 'approve_tool_calls' ? 'Waits for approval of' : 'Waits for the output of'} {step.names.join(', ')}
          </strong>{' '}
          {when}
        </>
      );
    case 'approval':
      return (
        <>
          <strong>
            {step.approved ? 'Approved' : 'Denied'} {step.name}
          </strong>
          {step.reason && <>: “{step.reason}”</>} {when}
        </>
      );
    case 'tool_output':
      return (
        <>
          <strong>{step.name} returned</strong> {when}
          <pre className="text">{step.output}</pre>
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
export function CitedTitle({ docId }: { docId: string }) {
  const { can } = useSession();
  const document = useCitedDocument(docId, can('kb:read'));
  return <>{document.data?.title ?? <code>{docId.slice(0, 8)}</code>}</>;
}
