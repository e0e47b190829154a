import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { useCreateSchedule, useSchedules } from '../../hooks/use-schedules';
import { DocsLink, ErrorNotice, Pager, ScopeNote, Status, usePager, When, TableScroll } from '../../components/ui';
import { VersionPicker, type PickedVersion } from '../../components/VersionPicker';
import { useSession } from '../../session';
import { OVERLAPS, describeTiming, type Overlap } from './schedule';
import { ScheduleActions } from './ScheduleActions';

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
        <ErrorNotice error={schedules.error} />
        {schedules.data && schedules.data.data.length > 0 && (
          <TableScroll label="Schedules, newest first">
            <table>
              <caption className="visually-hidden">Schedules, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Schedule</th>
                  <th scope="col">When</th>
                  <th scope="col">Next run</th>
                  <th scope="col">State</th>
                  <th scope="col">Input</th>
                  {can('runs:create') && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {schedules.data.data.map((schedule) => (
                  <tr key={schedule.schedule_id}>
                    <td>
                      <Link href={`/schedules/${schedule.schedule_id}`}>
                        <code>{schedule.schedule_id.slice(0, 8)}</code>
                      </Link>
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
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        {schedules.data?.data.length === 0 && <p>No schedules yet.</p>}
        <Pager pager={pager} nextCursor={schedules.data?.next_cursor} label="Pages of schedules" />
      </section>
    </>
  );
}

function CreateSchedule() {
  const { orgId } = useSession();
  const [, navigate] = useLocation();
  const [picked, setPicked] = useState<PickedVersion>({ agentId: '', versionId: '' });
  const [input, setInput] = useState('');
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
      agent_version_id: picked.versionId,
      input,
      ...(mode === 'cron' ? { cron, timezone } : { every_seconds: Number(every) }),
      overlap,
      paused,
    });
  };
  return (
    <section aria-labelledby="create-schedule-heading">
      <h2 id="create-schedule-heading">Create a schedule</h2>
      <form onSubmit={submit} className="stack">
        <VersionPicker idPrefix="schedule" value={picked} onChange={setPicked} />
        <label htmlFor="schedule-input">Input</label>
        <textarea id="schedule-input" required rows={3} value={input} onChange={(event) => setInput(event.target.value)} />
        <fieldset>
          <legend>When</legend>
          <label className="check">
            <input type="radio" name="schedule-mode" checked={mode === 'every'} onChange={() => setMode('every')} /> Every N seconds
          </label>
          <label className="check">
            <input type="radio" name="schedule-mode" checked={mode === 'cron'} onChange={() => setMode('cron')} /> Cron expression
          </label>
        </fieldset>
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
        <div>
          <button type="submit" disabled={create.isPending}>
            Create schedule
          </button>
        </div>
        <ErrorNotice error={create.error} />
      </form>
    </section>
  );
}
