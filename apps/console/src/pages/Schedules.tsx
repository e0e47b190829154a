import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import type { Schemas } from '../api/client';
import { useCreateSchedule, useSchedule, useScheduleActions, useScheduleRuns, useSchedules } from '../hooks/use-schedules';
import { DocsLink, ErrorNotice, Id, Pager, ScopeNote, Status, usePager, When, TableScroll } from '../components/ui';
import { VersionPicker, type PickedVersion } from '../components/VersionPicker';
import { useSession } from '../session';

type Schedule = Schemas['AgentScheduleView'];
type Overlap = Schedule['overlap'];
const OVERLAPS: Array<{ value: Overlap; label: string }> = [
  { value: 'skip', label: 'skip (while the previous run is not final)' },
  { value: 'buffer_one', label: 'buffer one (run it after the previous)' },
  { value: 'allow_all', label: 'allow all (run at once)' },
];

/** "every 60 s", or "0 9 * * MON-FRI (Europe/Paris)". */
export function describeTiming(schedule: Pick<Schedule, 'cron' | 'every_seconds' | 'timezone'>): string {
  return schedule.cron ? `${schedule.cron} (${schedule.timezone})` : `every ${schedule.every_seconds} s`;
}

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

/** Pause or resume, trigger, delete: each button names its schedule for a screen reader. */
function ScheduleActions({ schedule, onDeleted }: { schedule: Schedule; onDeleted?: () => void }) {
  const name = `schedule ${schedule.schedule_id.slice(0, 8)}`;
  const { pause, trigger, remove } = useScheduleActions(schedule, { onDeleted });
  const [confirming, setConfirming] = useState(false);
  const busy = pause.isPending || trigger.isPending || remove.isPending;
  return (
    <div className="actions">
      <button type="button" disabled={busy} onClick={() => pause.mutate()} aria-label={`${schedule.paused ? 'Resume' : 'Pause'} ${name}`}>
        {schedule.paused ? 'Resume' : 'Pause'}
      </button>{' '}
      <button type="button" disabled={busy} onClick={() => trigger.mutate()} aria-label={`Run now: ${name}`}>
        Run now
      </button>{' '}
      {confirming ? (
        <span role="group" aria-label={`Confirm deleting ${name}`}>
          Delete it? It fires no more; its runs stay.{' '}
          <button type="button" className="danger" onClick={() => remove.mutate()} disabled={busy}>
            Yes, delete
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </span>
      ) : (
        <button type="button" className="danger" disabled={busy} onClick={() => setConfirming(true)} aria-label={`Delete ${name}`}>
          Delete
        </button>
      )}
      {trigger.isSuccess && (
        <span role="status" className="hint">
          {' '}
          Fired: its run appears among the schedule’s runs.
        </span>
      )}
      <ErrorNotice error={pause.error ?? trigger.error ?? remove.error} />
    </div>
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

/** One schedule: its timing, next runs, actions, and the runs it made. */
export function SchedulePage({ scheduleId }: { scheduleId: string }) {
  const { can } = useSession();
  const [, navigate] = useLocation();
  const pager = usePager();
  const schedule = useSchedule(scheduleId);
  const runs = useScheduleRuns(scheduleId, pager.cursor);
  return (
    <>
      <p>
        <Link href="/schedules">← Schedules</Link>
      </p>
      <h1>Schedule</h1>
      <ErrorNotice error={schedule.error} />
      {schedule.data && (
        <>
          <dl className="facts">
            <dt>Id</dt>
            <dd>
              <Id value={schedule.data.schedule_id} label="schedule id" />
            </dd>
            <dt>When</dt>
            <dd>{describeTiming(schedule.data)}</dd>
            <dt>State</dt>
            <dd>
              <Status value={schedule.data.paused ? 'paused' : 'active'} />
            </dd>
            <dt>Overlap</dt>
            <dd>{schedule.data.overlap}</dd>
            <dt>Agent version</dt>
            <dd>
              <code>{schedule.data.agent_version_id}</code>
            </dd>
            <dt>Input</dt>
            <dd className="clip">{schedule.data.input}</dd>
          </dl>
          {can('runs:create') && <ScheduleActions schedule={schedule.data} onDeleted={() => navigate('/schedules')} />}
          <section aria-labelledby="next-runs-heading">
            <h2 id="next-runs-heading">Next runs</h2>
            {schedule.data.next_run_times.length > 0 ? (
              <ol>
                {schedule.data.next_run_times.map((time) => (
                  <li key={time}>
                    <time dateTime={time}>{new Date(time).toLocaleString()}</time>
                  </li>
                ))}
              </ol>
            ) : (
              <p>{schedule.data.paused ? 'None while paused.' : 'None.'}</p>
            )}
          </section>
        </>
      )}
      <section aria-labelledby="schedule-runs-heading">
        <h2 id="schedule-runs-heading">Its runs</h2>
        <ErrorNotice error={runs.error} />
        {runs.data && runs.data.data.length > 0 && (
          <TableScroll label="The schedule's runs, newest first">
            <table>
              <caption className="visually-hidden">The schedule’s runs, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Run</th>
                  <th scope="col">Scheduled for</th>
                  <th scope="col">Status</th>
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
                      <When at={run.scheduled_at} />
                    </td>
                    <td>
                      <Status value={run.status} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        {runs.data?.data.length === 0 && <p>No runs yet.</p>}
        <Pager pager={pager} nextCursor={runs.data?.next_cursor} label="Pages of the schedule's runs" />
      </section>
    </>
  );
}
