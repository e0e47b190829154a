import { Link, useLocation } from 'wouter';
import { useSchedule, useScheduleRuns } from '../../hooks/use-schedules';
import { ErrorNotice, Id, Pager, Status, usePager, When, TableScroll } from '../../components/ui';
import { useSession } from '../../session';
import { describeTiming } from './schedule';
import { ScheduleActions } from './ScheduleActions';

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
