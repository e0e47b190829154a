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
  admittedSince: number;
}

/**
 * How much work an organisation has waiting, for its backlog cap, without a count per create: a count
 * is reused for a second while far below the cap (adding what this process admitted since); near the
 * cap, every create counts again, so the cap holds within what other replicas admit meanwhile.
 */
export class BacklogCounts {
  private readonly counted = new Map<string, Counted>();

  /** The backlog as it stands, this create not included; counts it (up to `cap`) unless a recent count is good enough. */
  async count(key: string, cap: number, countUpTo: (upTo: number) => Promise<number>): Promise<number> {
    const now = Date.now();
    const known = this.counted.get(key);
    if (known && now - known.at < TRUSTED_FOR_MS && known.queued + known.admittedSince + 1 < cap * TRUSTED_BELOW_SHARE) {
      return known.queued + known.admittedSince++;
    }
    const queued = await countUpTo(cap);
    if (!known && this.counted.size >= MAX_TRACKED) this.counted.clear();
    this.counted.set(key, { queued, at: now, admittedSince: queued < cap ? 1 : 0 });
    return queued;
  }
}
