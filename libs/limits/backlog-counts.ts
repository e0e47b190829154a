/** The kinds of work an organisation queues, each with a backlog cap of its own. */
export type BacklogKind = 'runs' | 'documents';

/** A count read this recently is trusted while far enough below the cap… */
const TRUSTED_FOR_MS = 1_000;
/** …that is, while it (with what was admitted since) is below this share of the cap. */
const TRUSTED_BELOW_SHARE = 0.9;
const MAX_TRACKED = 10_000;

interface Counted {
  queued: number;
  at: number;
  /** Admitted by this process since the count was read. */
  admittedSince: number;
  /** The count being read; creates that arrive meanwhile wait for it rather than read their own. */
  counting: Promise<void> | null;
}

/**
 * How much work an organisation has waiting, for its backlog cap, without a count per create: a count
 * is reused for a second while far below the cap (adding what this process admitted since); near the
 * cap every create counts again, and creates that arrive together share one count and are admitted one
 * after another against it, so one process never passes the cap (and, for a second after it admitted
 * work, it counts that work even if the count does not show it yet: near the cap, it may refuse early
 * for that second). Other replicas' admissions meanwhile can pass it by as many as they admit in that time.
 */
export class BacklogCounts {
  private readonly counted = new Map<string, Counted>();

  /** Admits `amount` more against `cap` and answers the backlog before them; when they would pass the cap, admits nothing. */
  async admit(key: string, cap: number, countUpTo: (upTo: number) => Promise<number>, amount = 1): Promise<number> {
    let known = this.counted.get(key);
    const now = Date.now();
    const trusted =
      known && (known.counting !== null || (now - known.at < TRUSTED_FOR_MS && known.queued + known.admittedSince + 1 < cap * TRUSTED_BELOW_SHARE));
    if (!known || !trusted) {
      if (!known && this.counted.size >= MAX_TRACKED) this.counted.clear();
      known = this.recount(key, cap, countUpTo);
    }
    if (known.counting) await known.counting;
    const backlog = known.queued + known.admittedSince;
    if (backlog + amount <= cap) known.admittedSince += amount;
    return backlog;
  }

  /**
   * A fresh count. What this process admitted within the last second may not be written yet (its insert
   * still under way), so the count is never taken below the last estimate of that second.
   */
  private recount(key: string, cap: number, countUpTo: (upTo: number) => Promise<number>): Counted {
    const previous = this.counted.get(key);
    const atLeast = previous && Date.now() - previous.at < TRUSTED_FOR_MS ? previous.queued + previous.admittedSince : 0;
    const counted: Counted = { queued: 0, at: Date.now(), admittedSince: 0, counting: null };
    counted.counting = countUpTo(cap).then(
      (queued) => {
        counted.queued = Math.max(queued, atLeast);
        counted.at = Date.now();
        counted.counting = null;
      },
      (error: unknown) => {
        if (this.counted.get(key) === counted) this.counted.delete(key);
        throw error;
      },
    );
    this.counted.set(key, counted);
    return counted;
  }
}
