import type { LookupAddress } from 'node:dns';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { LookupFunction } from 'node:net';
import { RefusedUrlError, type PrivateTargets } from './address-guard';

export interface ConnectionPoolLimits {
  /** At most this many receivers (origin and pinned addresses) keep a pool; the least recently used one is retired past it. */
  maxPools: number;
  /** At most this many idle keep-alive sockets per pool; more are closed when their request ends. */
  maxIdleSocketsPerPool: number;
  /** An idle socket is closed after this long (sooner if the receiver's `Keep-Alive: timeout` hint says so). */
  idleSocketMs: number;
}

/**
 * 256 idle sockets per receiver, as Node's global agent keeps: an organisation's twenty endpoints often share
 * one origin, and sixteen events in flight to them are 320 POSTs at once (with 16, most of them reconnected).
 */
export const DEFAULT_CONNECTION_POOL_LIMITS: ConnectionPoolLimits = { maxPools: 256, maxIdleSocketsPerPool: 256, idleSocketMs: 4_000 };

type AnyAgent = HttpAgent | HttpsAgent;

interface PoolEntry {
  agent: AnyAgent;
  lastUsed: number;
}

/**
 * The connection lookup of a pinned receiver: answers with the addresses that were checked when the
 * receiver's name was resolved (never a second, unchecked DNS answer), and checks them again anyway.
 */
export function pinnedLookup(addresses: readonly LookupAddress[], allowed: PrivateTargets): LookupFunction {
  return (hostname, options, callback) => {
    const refused = addresses.find((entry) => !allowed.allows(entry.address));
    if (refused || addresses.length === 0) {
      const reason = refused ? `resolves to a non-public address (${refused.address})` : 'has no address';
      return callback(new RefusedUrlError(`refused: ${hostname} ${reason}`), '', 4);
    }
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [...addresses]);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}

/**
 * Keep-alive connections per receiver, so that an event's attempts and the next event's reuse the
 * sockets (and TLS sessions) of the attempts before instead of opening one connection per POST.
 * A pool is keyed by the URL's origin AND the addresses its name resolved to, checked, for this
 * attempt: a socket is reused only for the same pinned addresses, so a name that resolves elsewhere
 * (DNS rebinding, a fail-over) gets a pool, and connections, of its own. Bounded: at most
 * `maxPools` pools (the least recently used retired past it), `maxIdleSocketsPerPool` idle sockets
 * each, closed after `idleSocketMs` idle; a pool with no socket left is dropped.
 */
export class WebhookConnectionPool {
  private readonly pools = new Map<string, PoolEntry>();
  private lastSweep = 0;

  constructor(
    private readonly limits: ConnectionPoolLimits = DEFAULT_CONNECTION_POOL_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The agent for this receiver at these (checked) addresses. */
  agentFor(url: URL, addresses: readonly LookupAddress[]): AnyAgent {
    const key = WebhookConnectionPool.key(url, addresses);
    const now = this.now();
    this.sweep(now);
    const existing = this.pools.get(key);
    if (existing) {
      existing.lastUsed = now;
      // Most recently used last: the map's order is the eviction order.
      this.pools.delete(key);
      this.pools.set(key, existing);
      return existing.agent;
    }
    const options = {
      keepAlive: true,
      maxFreeSockets: this.limits.maxIdleSocketsPerPool,
      timeout: this.limits.idleSocketMs,
      scheduling: 'lifo' as const,
    };
    const agent = url.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
    this.pools.set(key, { agent, lastUsed: now });
    while (this.pools.size > this.limits.maxPools) {
      const [oldestKey, oldest] = this.pools.entries().next().value as [string, PoolEntry];
      this.pools.delete(oldestKey);
      retire(oldest.agent);
    }
    return agent;
  }

  /** How many pools are kept (for tests and metrics). */
  get size(): number {
    return this.pools.size;
  }

  /** Closes every idle socket and lets the busy ones close when their request ends. */
  close(): void {
    for (const { agent } of this.pools.values()) retire(agent);
    this.pools.clear();
  }

  static key(url: URL, addresses: readonly LookupAddress[]): string {
    return `${url.protocol}//${url.host} ${addresses.map((entry) => entry.address).join(',')}`;
  }

  /** Drops the pools idle for longer than an idle socket lives: they have no socket left (at most once a second). */
  private sweep(now: number): void {
    if (now - this.lastSweep < 1_000) return;
    this.lastSweep = now;
    for (const [key, entry] of this.pools) {
      if (now - entry.lastUsed <= this.limits.idleSocketMs) continue;
      if (busy(entry.agent)) continue;
      this.pools.delete(key);
      entry.agent.destroy();
    }
  }
}

function busy(agent: AnyAgent): boolean {
  const count = (sockets: NodeJS.ReadOnlyDict<unknown[]>) => Object.values(sockets).reduce((sum, list) => sum + (list?.length ?? 0), 0);
  return count(agent.sockets) + count(agent.requests) > 0;
}

/** No socket of this agent is kept alive any more: the idle ones close now, the busy ones when their request ends. */
function retire(agent: AnyAgent): void {
  agent.keepSocketAlive = () => false;
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}
