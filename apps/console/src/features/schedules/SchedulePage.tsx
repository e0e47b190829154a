import { Link, useLocation } from 'wouter';
import { useSchedule, useScheduleRuns } from '../../hooks/use-schedules';
import { ErrorNotice, Id, Status, usePager, When } from '../../components/ui';
import { PagedTable } from '../../components/DataTable';
import { Fact, Facts } from '../../components/Facts';
import { ShortIdLink } from '../../components/ShortIdLink';
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
          <Facts>
            <Fact term="Id">
              <Id value={schedule.data.schedule_id} label="schedule id" />
            </Fact>
            <Fact term="When">{describeTiming(schedule.data)}</Fact>
            <Fact term="State">
              <Status value={schedule.data.paused ? 'paused' : 'active'} />
            </Fact>
            <Fact term="Overlap">{schedule.data.overlap}</Fact>
            <Fact term="Agent version">
              <code>{schedule.data.agent_version_id}</code>
            </Fact>
            <Fact term="Input" className="clip">
              {schedule.data.input}
            </Fact>
          </Facts>
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
        <PagedTable
          list={runs}
          pager={pager}
          label="The schedule's runs, newest first"
          caption="The schedule’s runs, newest first"
          columns={['Run', 'Scheduled for', 'Status']}
          empty="No runs yet."
          pagesLabel="Pages of the schedule's runs"
          row={(run) => (
            <tr key={run.run_id}>
              <td>
                <ShortIdLink href={`/runs/${run.run_id}`} id={run.run_id} />
              </td>
              <td>
                <When at={run.scheduled_at} />
              </td>
              <td>
                <Status value={run.status} />
              </td>
            </tr>
          )}
        />
      </section>
    </>
  );
}
