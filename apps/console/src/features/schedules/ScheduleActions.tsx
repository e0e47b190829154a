import { useScheduleActions } from '../../hooks/use-schedules';
import { ErrorNotice } from '../../components/ui';
import { ConfirmAction } from '../../components/ConfirmAction';
import { type Schedule } from './schedule';

/** Pause or resume, trigger, delete: each button names its schedule for a screen reader. */
export function ScheduleActions({ schedule, onDeleted }: { schedule: Schedule; onDeleted?: () => void }) {
  const name = `schedule ${schedule.schedule_id.slice(0, 8)}`;
  const { pause, trigger, remove } = useScheduleActions(schedule, { onDeleted });
  const busy = pause.isPending || trigger.isPending || remove.isPending;
  return (
    <div className="actions">
      <button type="button" disabled={busy} onClick={() => pause.mutate()} aria-label={`${schedule.paused ? 'Resume' : 'Pause'} ${name}`}>
        {schedule.paused ? 'Resume' : 'Pause'}
      </button>{' '}
      <button type="button" disabled={busy} onClick={() => trigger.mutate()} aria-label={`Run now: ${name}`}>
        Run now
      </button>{' '}
      <ConfirmAction
        action="Delete"
        acting="deleting"
        target={name}
        question="Delete it? It fires no more; its runs stay."
        busy={busy}
        disabled={busy}
        onConfirm={() => remove.mutate()}
      />
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
