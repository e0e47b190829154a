import { Link } from 'wouter';
import { useRunEvents } from '../../api/run-events';
import { Citations } from '../../components/Citations';
import { PendingAction, pendingAction } from '../../components/PendingAction';
import { RunTimeline } from '../../components/RunTimeline';
import { DocsLink, ErrorNotice, Id, ScopeNote, Status, When } from '../../components/ui';
import { DataTable, numeric } from '../../components/DataTable';
import { Fact, Facts } from '../../components/Facts';
import { useAgentVersion } from '../../hooks/use-agents';
import { useCancelRun, useRun, useRunEnded, useRunUsage } from '../../hooks/use-runs';
import { useSession } from '../../session';

/** One run: its input, its output as it is produced (the live event stream), and cancel. */
export function RunPage({ runId }: { runId: string }) {
  const { can } = useSession();
  const run = useRun(runId);
  const runEnded = useRunEnded(runId);
  const { events, streamError, live } = useRunEvents(runId, { onEnd: runEnded });
  const cancel = useCancelRun(runId);
  const streamed = events
    .filter((event) => event.type === 'output_delta')
    .map((event) => String(event.data.text ?? ''))
    .join('');
  const action = pendingAction(events);
  const data = run.data;
  const finished = data?.status === 'succeeded' || data?.status === 'failed';
  const output = data?.output ?? (streamed || null);
  // A version with a response_format: its succeeded event carries the answer parsed.
  const succeeded = events.find((event) => event.type === 'succeeded');
  const outputParsed = succeeded && 'output_parsed' in succeeded.data ? succeeded.data.output_parsed : undefined;

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
          <Facts>
            <Fact term="Status">
              <Status value={data.status} />
              {data.error && (
                <>
                  {' '}
                  — error: <code>{data.error}</code>
                </>
              )}
            </Fact>
            <Fact term="Run id">
              <Id value={data.run_id} label="the run id" />
            </Fact>
            <Fact term="Agent version">
              <VersionName versionId={data.agent_version_id} />
            </Fact>
            <Fact term="Created">
              <When at={data.created_at} />
            </Fact>
            <Fact term="Updated">
              <When at={data.updated_at} />
            </Fact>
          </Facts>
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
          {action && can('runs:create') && (
            <PendingAction key={action.tool_calls.map((call) => call.id).join()} runId={runId} action={action} level={2} />
          )}
          <h2>Input</h2>
          <pre className="text">{data.input}</pre>
          <h2>Output</h2>
          <pre className="text" aria-live="polite" data-testid="run-output">
            {output ?? (finished ? '(none)' : 'Waiting for output…')}
          </pre>
          <Citations text={output} />
          {outputParsed !== undefined && (
            <>
              <h3>Structured answer</h3>
              <p className="hint">The output parsed as JSON, checked against the version’s response format.</p>
              <pre className="text" data-testid="run-output-parsed">
                {JSON.stringify(outputParsed, null, 2)}
              </pre>
            </>
          )}
          <RunCost runId={runId} finished={finished} />
        </>
      )}
      <section aria-labelledby="events-heading">
        <h2 id="events-heading">Timeline {live ? <span className="status status-running">live</span> : null}</h2>
        <ErrorNotice error={streamError} />
        <RunTimeline events={events} label="What the run did, in order" />
      </section>
    </>
  );
}

/** The version a run ran, as "agent v2 · model" linked to its agent (needs agents:manage), or its id. */
function VersionName({ versionId }: { versionId: string }) {
  const { can } = useSession();
  const version = useAgentVersion(versionId, can('agents:manage'));
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

/** What the run's model turns took and cost (GET /api/v1/agent-runs/{run_id}/usage): one row per turn, and the total. */
function RunCost({ runId, finished }: { runId: string; finished: boolean }) {
  const usage = useRunUsage(runId, finished);
  const data = usage.data;
  return (
    <section aria-labelledby="cost-heading">
      <h2 id="cost-heading">Tokens and cost</h2>
      <p className="hint">
        Each model call is a turn, counted by the provider or by a tokenizer; its cost in service tokens is debited from the balance when it is
        recorded.
      </p>
      <ErrorNotice error={usage.error} />
      {data && data.turns.length === 0 && <p>No model turns yet.</p>}
      {data && data.turns.length > 0 && (
        <DataTable
          label="Model turns of this run"
          columns={['Turn', 'Model', numeric('Input tokens'), numeric('Output tokens'), 'Counted by', numeric('Cost'), 'Charged']}
          footer={
            <tr>
              <th scope="row" colSpan={2}>
                Total ({data.total.turns === 1 ? '1 turn' : `${data.total.turns} turns`})
              </th>
              <td className="number">{data.total.input_tokens.toLocaleString()}</td>
              <td className="number">{data.total.output_tokens.toLocaleString()}</td>
              <td />
              <td className="number" data-testid="run-cost-total">
                {data.total.cost_tokens.toLocaleString()}
              </td>
              <td />
            </tr>
          }
        >
          {data.turns.map((turn) => (
            <tr key={turn.turn}>
              <td>{turn.turn}</td>
              <td>
                <code>{turn.model}</code>
              </td>
              <td className="number">{turn.input_tokens.toLocaleString()}</td>
              <td className="number">{turn.output_tokens.toLocaleString()}</td>
              <td>{turn.counted_by === 'provider' ? 'the provider' : 'tokenizer (o200k_base)'}</td>
              <td className="number">{turn.cost_tokens.toLocaleString()}</td>
              <td>{turn.charged ? 'yes' : <strong>no: the balance could not pay it</strong>}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
