import { useId, useState, type FormEvent } from 'react';
import type { RequiredAction, ToolCall } from '../api/conversations';
import type { RunEvent } from '../api/run-events';
import { useApproveToolCalls, useSubmitToolOutputs } from '../hooks/use-runs';
import { parsed } from './RunTimeline';
import { Done, ErrorNotice, When } from './ui';

const TERMINAL = new Set(['succeeded', 'failed']);

/** The action the turn waits for, from its events: the latest `requires_action` not yet answered call by call, until the turn ends. */
export function pendingAction(events: RunEvent[]): RequiredAction | null {
  let pending: RequiredAction | null = null;
  const answered = new Set<string>();
  for (const event of events) {
    if (event.type === 'requires_action') {
      pending = event.data as unknown as RequiredAction;
      answered.clear();
    } else if (event.type === 'tool_result' || event.type === 'tool_approval') answered.add(String(event.data.call_id));
    else if (TERMINAL.has(event.type)) pending = null;
  }
  return pending && !pending.tool_calls.every((call) => answered.has(call.id)) ? pending : null;
}

/** What the waiting run needs, with the form that answers it; under a heading of `level` (in the page's outline). */
export function PendingAction({ runId, action, level = 3 }: { runId: string; action: RequiredAction; level?: 2 | 3 }) {
  const id = useId();
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div className="pending-action" role="region" aria-labelledby={`${id}-heading`}>
      <Heading id={`${id}-heading`}>
        {action.type === 'submit_tool_outputs' ? 'The agent waits for tool outputs' : 'The agent asks for approval'}
      </Heading>
      <p className="hint">
        {action.type === 'submit_tool_outputs'
          ? 'Run each call yourself and give what it returned (JSON or text).'
          : 'Approve a call to let it run; a denied one does not run, and the model is told why.'}{' '}
        It waits until <When at={action.expires_at} />, then the run fails.
      </p>
      {action.type === 'submit_tool_outputs' ? (
        <ToolOutputsForm runId={runId} calls={action.tool_calls} />
      ) : (
        <ApprovalsForm runId={runId} calls={action.tool_calls} />
      )}
    </div>
  );
}

/** "lookup_order", or "lookup_order (call 2)" when the turn made more than one call of it. */
function callLabel(calls: ToolCall[], index: number): string {
  const call = calls[index]!;
  const same = calls.filter((other) => other.name === call.name);
  return same.length > 1 ? `${call.name} (call ${same.indexOf(call) + 1})` : call.name;
}

function ToolOutputsForm({ runId, calls }: { runId: string; calls: ToolCall[] }) {
  const id = useId();
  const [outputs, setOutputs] = useState<string[]>(() => calls.map(() => '{}'));
  const send = useSubmitToolOutputs(runId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate(calls.map((call, index) => ({ tool_call_id: call.id, output: outputs[index] ?? '' })));
  };
  return (
    <form onSubmit={submit} className="stack">
      {calls.map((call, index) => (
        <div key={call.id} className="tool-call">
          <p>
            <strong>{callLabel(calls, index)}</strong> was called with:
          </p>
          <pre className="text">{pretty(call.arguments)}</pre>
          <label htmlFor={`${id}-${index}`}>Output of {callLabel(calls, index)}</label>
          <textarea
            id={`${id}-${index}`}
            rows={3}
            spellCheck={false}
            value={outputs[index]}
            onChange={(event) => setOutputs(outputs.map((output, at) => (at === index ? event.target.value : output)))}
          />
          {looksLikeBadJson(outputs[index] ?? '') && <p className="hint">Not valid JSON: it is sent as text.</p>}
        </div>
      ))}
      <div>
        <button type="submit" disabled={send.isPending || send.isSuccess}>
          Send {calls.length === 1 ? 'output' : 'outputs'}
        </button>
      </div>
      <ErrorNotice error={send.error} />
      {send.isSuccess && <Done>Sent: the agent goes on with {calls.length === 1 ? 'it' : 'them'}.</Done>}
    </form>
  );
}

function looksLikeBadJson(text: string): boolean {
  if (!/^\s*[[{]/.test(text)) return false;
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

function ApprovalsForm({ runId, calls }: { runId: string; calls: ToolCall[] }) {
  const id = useId();
  const [decisions, setDecisions] = useState<Array<boolean | null>>(() => calls.map(() => null));
  const [reasons, setReasons] = useState<string[]>(() => calls.map(() => ''));
  const decide = (index: number, approve: boolean) => setDecisions(decisions.map((decision, at) => (at === index ? approve : decision)));
  const send = useApproveToolCalls(runId);
  const undecided = decisions.filter((decision) => decision === null).length;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate(
      calls.map((call, index) => ({
        tool_call_id: call.id,
        approve: decisions[index] === true,
        ...(reasons[index]?.trim() ? { reason: reasons[index].trim() } : {}),
      })),
    );
  };
  return (
    <form onSubmit={submit} className="stack">
      {calls.map((call, index) => (
        <div key={call.id} className="tool-call" role="group" aria-labelledby={`${id}-${index}-name`}>
          <p id={`${id}-${index}-name`}>
            <strong>{callLabel(calls, index)}</strong> would run with:
          </p>
          <pre className="text">{pretty(call.arguments)}</pre>
          <div className="row decision">
            <button type="button" aria-pressed={decisions[index] === true} onClick={() => decide(index, true)}>
              Approve<span className="visually-hidden"> {callLabel(calls, index)}</span>
            </button>
            <button type="button" className="deny" aria-pressed={decisions[index] === false} onClick={() => decide(index, false)}>
              Deny<span className="visually-hidden"> {callLabel(calls, index)}</span>
            </button>
          </div>
          <label htmlFor={`${id}-${index}-reason`}>Reason for {callLabel(calls, index)} (optional, told to the model)</label>
          <input
            id={`${id}-${index}-reason`}
            maxLength={1_000}
            value={reasons[index]}
            onChange={(event) => setReasons(reasons.map((reason, at) => (at === index ? event.target.value : reason)))}
          />
        </div>
      ))}
      <div>
        <button type="submit" disabled={undecided > 0 || send.isPending || send.isSuccess}>
          Send {calls.length === 1 ? 'decision' : 'decisions'}
        </button>{' '}
        {undecided > 0 && <span className="hint">Approve or deny {undecided === 1 ? 'the call' : `each of the ${undecided} calls`} first.</span>}
      </div>
      <ErrorNotice error={send.error} />
      {send.isSuccess && <Done>Sent: the agent goes on.</Done>}
    </form>
  );
}

/** JSON text indented; any other text as it is. */
export function pretty(text: string | null): string {
  if (text === null) return '';
  const value = parsed(text);
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
