import type { ChangeAnnouncements } from '@pylon/db';

/** Resolves once `check` holds, checking every 10 ms; fails naming `what` after 10 s. */
export async function eventually(check: () => boolean, what: string): Promise<void> {
  const until = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Starts `changes` listening; what it hears is pushed to the returned list, from the 'all' once LISTEN took effect on. */
export async function recordAnnouncements(changes: ChangeAnnouncements): Promise<string[]> {
  const heard: string[] = [];
  changes.onChange((changed) => heard.push(changed));
  changes.hearing();
  await eventually(() => changes.hearing(), 'LISTEN');
  return heard;
}
