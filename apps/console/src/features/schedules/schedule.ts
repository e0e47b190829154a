import type { Schemas } from '../../api/client';

/** What a schedule is: its types, the overlap policies offered, and its timing in words. */
export type Schedule = Schemas['AgentScheduleView'];
export type Overlap = Schedule['overlap'];
export const OVERLAPS: Array<{ value: Overlap; label: string }> = [
  { value: 'skip', label: 'skip (while the previous run is not final)' },
  { value: 'buffer_one', label: 'buffer one (run it after the previous)' },
  { value: 'allow_all', label: 'allow all (run at once)' },
];

/** "every 60 s", or "0 9 * * MON-FRI (Europe/Paris)". */
export function describeTiming(schedule: Pick<Schedule, 'cron' | 'every_seconds' | 'timezone'>): string {
  return schedule.cron ? `${schedule.cron} (${schedule.timezone})` : `every ${schedule.every_seconds} s`;
}
