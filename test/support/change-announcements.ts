import type { ChangeAnnouncements } from '@pylon/db';
import { until } from './wait';

/** Resolves once `check` holds, checking every 10 ms; fails naming `what` after 10 s. */
export async function eventually(check: () => boolean, what: string): Promise<void> {
  await until(what, check, { timeoutMs: 10_000, intervalMs: 10 });
}

/** Starts `changes` listening; what it hears is pushed to the returned list, from the 'all' once LISTEN took effect on. */
export async function recordAnnouncements(changes: ChangeAnnouncements): Promise<string[]> {
  const heard: string[] = [];
  changes.onChange((changed) => heard.push(changed));
  changes.hearing();
  await eventually(() => changes.hearing(), 'LISTEN');
  return heard;
}
