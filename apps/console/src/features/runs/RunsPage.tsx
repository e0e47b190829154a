import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import type { Schemas } from '../../api/client';
import { useRuns, useStartRun } from '../../hooks/use-runs';
import { DocsLink, ErrorNotice, Pager, ScopeNote, Status, usePager, When, TableScroll } from '../../components/ui';
import { VersionPicker, type PickedVersion } from '../../components/VersionPicker';
import { useSession } from '../../session';

type RunStatus = Schemas['AgentRunView']['status'];
const STATUSES: RunStatus[] = ['queued', 'running', 'succeeded', 'failed'];

/** Runs, newest first, by status with cursor paging; and a form that starts a run. */
export function RunsPage() {
  const { can } = useSession();
  const [status, setStatus] = useState<RunStatus | ''>('');
  const pager = usePager();
  const runs = useRuns(status, pager.cursor);
  return (
    <>
      <h1>Runs</h1>
      <DocsLink tag="agent runs">Agent runs in the API reference</DocsLink>
      {can('runs:create') ? (
        <StartRun />
      ) : (
        <ScopeNote>Starting and cancelling runs needs the runs:create scope, which this key does not have.</ScopeNote>
      )}
      <section aria-labelledby="runs-heading">
        <h2 id="runs-heading">Recent runs</h2>
        <label htmlFor="run-status">Status</label>{' '}
        <select
          id="run-status"
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as RunStatus | '');
            pager.reset();
          }}
        >
          <option value="">any</option>
          {STATUSES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
        <ErrorNotice error={runs.error} />
        {runs.data && runs.data.data.length > 0 && (
          <TableScroll label="Runs, newest first">
            <table>
              <caption className="visually-hidden">Runs, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Run</th>
                  <th scope="col">Status</th>
                  <th scope="col">Input</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {runs.data.data.map((run) => (
                  <tr key={run.run_id}>
                    <td>
                      <Link href={`/runs/${run.run_id}`}>
                        <code>{run.run_id.slice(0, 8)}</code>
                      </Link>
                    </td>
                    <td>
                      <Status value={run.status} />
                    </td>
                    <td className="clip">{run.input}</td>
                    <td>
                      <When at={run.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        {runs.data?.data.length === 0 && <p>No runs{status ? ` with status ${status}` : ''}.</p>}
        <Pager pager={pager} nextCursor={runs.data?.next_cursor} label="Pages of runs" />
      </section>
    </>
  );
}

function StartRun() {
  const { orgId } = useSession();
  const [, navigate] = useLocation();
  const [picked, setPicked] = useState<PickedVersion>({ agentId: '', versionId: '' });
  const [input, setInput] = useState('');
  const start = useStartRun({ onSuccess: (created) => navigate(`/runs/${created.run_id}`) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    start.mutate({ org_id: orgId, agent_version_id: picked.versionId, input });
  };
  return (
    <section aria-labelledby="start-run-heading">
      <h2 id="start-run-heading">Start a run</h2>
      <form onSubmit={submit} className="stack">
        <VersionPicker idPrefix="run" value={picked} onChange={setPicked} />
        <label htmlFor="run-input">Input</label>
        <textarea id="run-input" required rows={3} value={input} onChange={(event) => setInput(event.target.value)} />
        <div>
          <button type="submit" disabled={start.isPending}>
            Start run
          </button>
        </div>
        <ErrorNotice error={start.error} />
      </form>
    </section>
  );
}
