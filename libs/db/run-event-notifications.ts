import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { PylonConfig } from '@pylon/config';
import { RUN_EVENTS_CHANNEL } from './migrations/1764500000000-run-events';

/**
 * PostgreSQL's announcements of new run events (LISTEN on one connection per process), handed to
 * whoever follows that run. Best effort by design: followers also read the table on a timer, so a
 * lost connection (or PGlite, whose single session does not deliver them) only slows them down.
 */
@Injectable()
export class RunEventNotifications implements OnModuleDestroy {
  private readonly logger = new Logger(RunEventNotifications.name);
  private readonly followers = new Map<string, Set<(seq: number) => void>>();
  private listening: Promise<Client> | undefined;
  private closed = false;

  constructor(private readonly config: PylonConfig) {}

  /** Calls `onEvent` with the event's `seq` when an event of the run is committed. Returns the way to stop. */
  subscribe(runId: string, onEvent: (seq: number) => void): () => void {
    let set = this.followers.get(runId);
    if (!set) this.followers.set(runId, (set = new Set()));
    set.add(onEvent);
    this.listen();
    return () => {
      set.delete(onEvent);
      if (set.size === 0) this.followers.delete(runId);
    };
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    const client = await this.listening?.catch(() => undefined);
    await client?.end().catch(() => undefined);
  }

  private listen(): void {
    if (this.listening || this.closed) return;
    const client = new Client({ connectionString: this.config.requireDatabaseUrl(), application_name: 'pylon-run-events' });
    const forget = (error?: unknown) => {
      if (error) this.logger.warn(`run event notifications stopped (${(error as Error).message}); streams read the database on a timer`);
      if (this.listening) this.listening = undefined;
      client.removeAllListeners();
      client.end().catch(() => undefined);
    };
    client.on('notification', (message) => {
      const [runId, seq] = message.payload?.split(':') ?? [];
      // An announcement without a readable seq still wakes its followers: they read the log to see.
      if (runId) for (const wake of this.followers.get(runId) ?? []) wake(Number(seq) || Number.MAX_SAFE_INTEGER);
    });
    client.on('error', forget);
    client.on('end', () => forget());
    this.listening = client
      .connect()
      .then(() => client.query(`LISTEN ${RUN_EVENTS_CHANNEL}`))
      .then(() => client);
    this.listening.catch(forget);
  }
}
