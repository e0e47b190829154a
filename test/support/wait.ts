/**
 * Waiting in tests (docs/testing.md, "Waiting"): a test polls for the condition it needs and goes on the moment
 * it holds; it never sleeps in the hope that it holds by then. The one fixed wait is `holdsFor`, which proves that
 * something does not happen over a span, checking all along.
 */

export interface PollOptions {
  /** How long to wait before failing, naming what was awaited (default 30 s). */
  timeoutMs?: number;
  /** The pause between two probes (default 100 ms). */
  intervalMs?: number;
}

/** What `until` hands back: the probe's first answer that is not `false`, `null` or `undefined`. */
export type Found<T> = Exclude<T, false | null | undefined>;

export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Probes until `probe` answers something other than `false`, `null` or `undefined`, and returns that answer (so a
 * probe can return what it read). Fails after `timeoutMs` with `what` and the last answer. A probe that throws
 * fails the wait at once: an assertion inside it is a failure, not a "not yet".
 */
export async function until<T>(what: string, probe: () => T | Promise<T>, options: PollOptions = {}): Promise<Found<T>> {
  const { timeoutMs = 30_000, intervalMs = 100 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await probe();
    if (answer !== false && answer !== null && answer !== undefined) return answer as Found<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (the last probe answered ${String(answer)})`);
    await pause(intervalMs);
  }
}

/**
 * Proves an absence: `check` holds at once, at every probe for `spanMs`, and at the end of it. Fails at the first
 * probe where it does not, naming `what`. The only fixed wait a suite makes, and only for what must not happen.
 */
export async function holdsFor(what: string, spanMs: number, check: () => boolean | Promise<boolean>, intervalMs = 50): Promise<void> {
  const end = Date.now() + spanMs;
  for (;;) {
    if (!(await check())) throw new Error(`${what} no longer held, ${spanMs - Math.max(0, end - Date.now())} ms into its ${spanMs} ms span`);
    const left = end - Date.now();
    if (left <= 0) return;
    await pause(Math.min(intervalMs, left));
  }
}
