import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { useCreateSchedule, useSchedules } from '../../hooks/use-schedules';
import { DocsLink, ScopeNote, Status, usePager, When } from '../../components/ui';
import { PagedTable } from '../../components/DataTable';
import { RadioChoice } from '../../components/RadioChoice';
import { ShortIdLink } from '../../components/ShortIdLink';
import { Submit } from '../../components/Submit';
import { NO_RUN_REQUEST, RunRequestFields } from '../../components/RunRequestFields';
import { useSession } from '../../session';
import { OVERLAPS, describeTiming, type Overlap } from './schedule';
import { ScheduleActions } from './ScheduleActions';

const MODES = [
  { value: 'every', label: 'Every N seconds' },
  { value: 'cron', label: 'Cron expression' },
] as const;

/** Schedules: create, list with their next run, pause or resume, trigger, delete. */
export function SchedulesPage() {
  const { can } = useSession();
  const pager = usePager();
  const schedules = useSchedules(pager.cursor);
  return (
    <>
      <h1>Schedules</h1>
      <DocsLink tag="agent schedules">Agent schedules in the API reference</DocsLink>
      {can('runs:create') ? (
        <CreateSchedule />
      ) : (
        <ScopeNote>Creating and changing schedules needs the runs:create scope, which this key does not have.</ScopeNote>
      )}
      <section aria-labelledby="schedules-heading">
        <h2 id="schedules-heading">Schedules</h2>
        <PagedTable
          list={schedules}
          pager={pager}
          label="Schedules, newest first"
          columns={['Schedule', 'When', 'Next run', 'State', 'Input', ...(can('runs:create') ? ['Actions'] : [])]}
          empty="No schedules yet."
          pagesLabel="Pages of schedules"
          row={(schedule) => (
            <tr key={schedule.schedule_id}>
              <td>
                <ShortIdLink href={`/schedules/${schedule.schedule_id}`} id={schedule.schedule_id} />
              </td>
              <td>{describeTiming(schedule)}</td>
              <td>{schedule.next_run_at ? <When at={schedule.next_run_at} /> : '—'}</td>
              <td>
                <Status value={schedule.paused ? 'paused' : 'active'} />
              </td>
              <td className="clip">{schedule.input}</td>
              {can('runs:create') && (
                <td className="actions">
                  <ScheduleActions schedule={schedule} />
                </td>
              )}
            </tr>
          )}
        />
      </section>
    </>
  );
}

function CreateSchedule() {
  const { orgId } = useSession();
  const [, navigate] = useLocation();
  const [request, setRequest] = useState(NO_RUN_REQUEST);
  const [mode, setMode] = useState<'cron' | 'every'>('every');
  const [cron, setCron] = useState('0 9 * * MON-FRI');
  const [every, setEvery] = useState('3600');
  const [timezone, setTimezone] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  const [overlap, setOverlap] = useState<Overlap>('skip');
  const [paused, setPaused] = useState(false);
  const create = useCreateSchedule({ onSuccess: (created) => navigate(`/schedules/${created.schedule_id}`) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({
      org_id: orgId,
      agent_version_id: request.version.versionId,
      input: request.input,
      ...(mode === 'cron' ? { cron, timezone } : { every_seconds: Number(every) }),
      overlap,
      paused,
    });
  };
  return (
    <section aria-labelledby="create-schedule-heading">
      <h2 id="create-schedule-heading">Create a schedule</h2>
      <form onSubmit={submit} className="stack">
        <RunRequestFields idPrefix="schedule" value={request} onChange={setRequest} />
        <RadioChoice legend="When" name="schedule-mode" value={mode} onChange={setMode} options={MODES} />
        {mode === 'every' ? (
          <>
            <label htmlFor="schedule-every">Every (seconds, at least 1)</label>
            <input id="schedule-every" type="number" required min={1} step={1} value={every} onChange={(event) => setEvery(event.target.value)} />
          </>
        ) : (
          <>
            <label htmlFor="schedule-cron">Cron (minute hour day-of-month month day-of-week)</label>
            <input id="schedule-cron" required maxLength={200} value={cron} onChange={(event) => setCron(event.target.value)} />
            <label htmlFor="schedule-timezone">Time zone</label>
            <input id="schedule-timezone" required maxLength={64} value={timezone} onChange={(event) => setTimezone(event.target.value)} />
          </>
        )}
        <label htmlFor="schedule-overlap">While the previous run is not final</label>
        <select id="schedule-overlap" value={overlap} onChange={(event) => setOverlap(event.target.value as Overlap)}>
          {OVERLAPS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <label className="check">
          <input type="checkbox" checked={paused} onChange={(event) => setPaused(event.target.checked)} /> Create it paused
        </label>
        <Submit disabled={create.isPending} error={create.error}>
          Create schedule
        </Submit>
      </form>
    </section>
  );
}
