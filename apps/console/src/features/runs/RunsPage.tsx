import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import type { Schemas } from '../../api/client';
import { useRuns, useStartRun } from '../../hooks/use-runs';
import { DocsLink, ErrorNotice, ScopeNote, Status, usePager, When } from '../../components/ui';
import { PagedTable } from '../../components/DataTable';
import { ShortIdLink } from '../../components/ShortIdLink';
import { Submit } from '../../components/Submit';
import { NO_RUN_REQUEST, RunRequestFields } from '../../components/RunRequestFields';
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
        <PagedTable
          list={runs}
          pager={pager}
          label="Runs, newest first"
          columns={['Run', 'Status', 'Input', 'Created']}
          empty={`No runs${status ? ` with status ${status}` : ''}.`}
          pagesLabel="Pages of runs"
          row={(run) => (
            <tr key={run.run_id}>
              <td>
                <ShortIdLink href={`/runs/${run.run_id}`} id={run.run_id} />
              </td>
              <td>
                <Status value={run.status} />
              </td>
              <td className="clip">{run.input}</td>
              <td>
                <When at={run.created_at} />
              </td>
            </tr>
          )}
        />
      </section>
    </>
  );
}

function StartRun() {
  const { orgId } = useSession();
  const [, navigate] = useLocation();
  const [request, setRequest] = useState(NO_RUN_REQUEST);
  const start = useStartRun({ onSuccess: (created) => navigate(`/runs/${created.run_id}`) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    start.mutate({ org_id: orgId, agent_version_id: request.version.versionId, input: request.input });
  };
  return (
    <section aria-labelledby="start-run-heading">
      <h2 id="start-run-heading">Start a run</h2>
      <form onSubmit={submit} className="stack">
        <RunRequestFields idPrefix="run" value={request} onChange={setRequest} />
        <Submit disabled={start.isPending} error={start.error}>
          Start run
        </Submit>
      </form>
    </section>
  );
}
