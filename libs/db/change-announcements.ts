import { Logger, type OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import type { PylonConfig } from '@pylon/config';

/** How long after a lost connection the next attempt to listen waits. */
const RECONNECT_DELAY_MS = 1_000;
/** How long a change waits to hear its own announcement before it answers anyway. */
const OWN_ANNOUNCEMENT_WAIT_MS = 1_000;

/**
 * PostgreSQL's announcements on one channel (LISTEN on one connection per process; a trigger sends them,
 * each naming what changed). A cache of what they announce may be trusted only while `hearing()`: a
 * process that cannot hear a change must read every time. `generation` grows with every announcement and
 * every lost connection, so that a read started before one is not cached after it. One subclass per
 * channel: ApiKeyChanges, ModelPriceChanges.
 */
export class ChangeAnnouncements implements OnModuleDestroy {
  private readonly logger: Logger;
  private readonly listeners = new Set<(changed: string | 'all') => void>();
  /** Changes of this process waiting to hear their own announcement, by what they change. */
  private readonly awaitingOwn = new Map<string, Set<() => void>>();
  private client: Client | undefined;
  private connected = false;
  private closed = false;
  private retryAt = 0;
  generation = 0;

  constructor(
    private readonly config: PylonConfig,
    private readonly channel: string,
    private readonly what: string,
  ) {
    this.logger = new Logger(`ChangeAnnouncements(${channel})`);
  }

  /** Whether every change committed from now on will be heard; starts listening when not yet. */
  hearing(): boolean {
    if (!this.client && !this.closed && Date.now() >= this.retryAt) this.listen();
    return this.connected;
  }

  /** Calls `onChange` with what changed, or 'all' when announcements may have been missed. */
  onChange(onChange: (changed: string | 'all') => void): void {
    this.listeners.add(onChange);
  }

  /**
   * Runs `change` and, when it changed `id` (`changed` of its result), answers once this process has heard
   * that announcement, or after at most a second. PostgreSQL sends it to every replica at the same commit, so a
   * caller answered after this process heard it finds the other replicas have heard it too, as good as always;
   * otherwise the caller's next request could reach a replica that still trusts what it had cached.
   */
  async heardAfter<T>(id: string, change: () => Promise<T>, changed: (result: T) => boolean = Boolean): Promise<T> {
    if (!this.hearing()) return change();
    let heard!: () => void;
    const announced = new Promise<void>((resolve) => (heard = resolve));
    const waiting = this.awaitingOwn.get(id) ?? new Set();
    this.awaitingOwn.set(id, waiting.add(heard));
    const timeout = setTimeout(heard, OWN_ANNOUNCEMENT_WAIT_MS);
    try {
      const result = await change();
      if (changed(result)) await announced;
      return result;
    } finally {
      clearTimeout(timeout);
      waiting.delete(heard);
      if (waiting.size === 0 && this.awaitingOwn.get(id) === waiting) this.awaitingOwn.delete(id);
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    await this.client?.end().catch(() => undefined);
  }

  private announce(changed: string | 'all'): void {
    this.generation++;
    for (const listener of this.listeners) listener(changed);
    const heard = changed === 'all' ? [...this.awaitingOwn.values()] : [this.awaitingOwn.get(changed) ?? []];
    for (const waiting of heard) for (const resolve of waiting) resolve();
  }

  private listen(): void {
    const client = new Client({ connectionString: this.config.requireDatabaseUrl(), application_name: `pylon-${this.channel}` });
    this.client = client;
    const lost = (error?: unknown) => {
      if (this.client !== client) return;
      if (error && !this.closed)
        this.logger.warn(`announcements of changed ${this.what} stopped (${(error as Error).message}); they are read every time until they resume`);
      this.client = undefined;
      this.connected = false;
      this.retryAt = Date.now() + RECONNECT_DELAY_MS;
      this.announce('all');
      client.removeAllListeners();
      client.on('error', () => undefined);
      client.end().catch(() => undefined);
    };
    client.on('notification', (message) => {
      if (message.payload) this.announce(message.payload);
    });
    client.on('error', lost);
    client.on('end', () => lost());
    client
      .connect()
      .then(() => client.query(`LISTEN ${this.channel}`))
      .then(() => {
        if (this.client !== client) return;
        // Whatever changed before LISTEN took effect was not heard.
        this.announce('all');
        this.connected = true;
      })
      .catch(lost);
  }
}
