/** The most requests one API process takes from a key's shared one-second window at once. */
export const MAX_LEASE = 64;
/** A fresh window's first lease: this share of the key's rate. */
const FIRST_LEASE_SHARE = 0.1;
/** Later leases: this share of what the window had left at the last lease, so they shrink to 1 near the limit. */
const NEXT_LEASE_SHARE = 0.25;
const MAX_TRACKED_KEYS = 10_000;

interface Lease {
  /** Requests this process may still admit in the window without asking the store. */
  points: number;
  /** When the store's window ends (ms since the epoch); the lease ends with it. */
  windowEndsAt: number;
  /** What the store had left in the window after this process's last lease. */
  storeRemaining: number;
}

/**
 * A process's share of each API key's one-second rate window, taken from the shared store (PostgreSQL)
 * a few requests at a time instead of one: the store is asked once per lease, not once per request.
 * The store counts every leased request before it is admitted, so replicas together never admit more
 * than the rate; a lease that finds the window nearly spent may refuse up to its size − 1 requests early
 * (they then draw on the burst allowance), which is why leases shrink as the window empties.
 */
export class KeyRateLeases {
  private readonly leases = new Map<string, Lease>();

  /** Takes one request from this process's lease of the key's current window, if it has one. */
  take(leaseKey: string, now = Date.now()): { remaining: number; windowEndsAt: number } | null {
    const lease = this.leases.get(leaseKey);
    if (!lease || lease.points <= 0 || lease.windowEndsAt <= now) return null;
    lease.points--;
    return { remaining: lease.storeRemaining + lease.points, windowEndsAt: lease.windowEndsAt };
  }

  /** How many requests to ask the store for: a share of the rate, or of what the window had left. */
  size(leaseKey: string, perSecond: number, now = Date.now()): number {
    const lease = this.leases.get(leaseKey);
    const basis = lease && lease.windowEndsAt > now ? lease.storeRemaining * NEXT_LEASE_SHARE : perSecond * FIRST_LEASE_SHARE;
    return Math.max(1, Math.min(MAX_LEASE, Math.floor(basis)));
  }

  /** Records a lease the store granted (`points`, one of which the current request uses). */
  granted(leaseKey: string, points: number, storeRemaining: number, windowEndsAt: number, now = Date.now()): { remaining: number } {
    const current = this.leases.get(leaseKey);
    const sameWindow = current && current.windowEndsAt > now && Math.abs(current.windowEndsAt - windowEndsAt) < 1_000;
    const unused = sameWindow ? current.points : 0;
    if (!current && this.leases.size >= MAX_TRACKED_KEYS) this.leases.clear();
    const lease = { points: unused + points - 1, windowEndsAt, storeRemaining: Math.max(0, storeRemaining) };
    this.leases.set(leaseKey, lease);
    return { remaining: lease.storeRemaining + lease.points };
  }

  /** The window is spent as far as this process knows: the next request asks the store for one. */
  exhausted(leaseKey: string, windowEndsAt: number): void {
    this.leases.set(leaseKey, { points: 0, windowEndsAt, storeRemaining: 0 });
  }
}
