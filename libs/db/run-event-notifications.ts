import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { PylonConfig } from '@pylon/config';
import { RUN_EVENTS_CHANNEL } from './migrations/1764500000000-run-events';

/**
 * What the run_events trigger announces, `<run_id>:<seq>`. Anything else on the channel is ignored: a
 * follower woken without a seq would have nothing to wait for and read the log again and again; the
 * followers' timer reads it anyway.
 */
export function parseAnnouncement(payload: string | undefined): { runId: string; seq: number } | null {
  const match = /^([0-9a-f-]{36}):([1-9][0-9]*)$/i.exec(payload ?? '');
  if (!match) return null;
  const seq = Number(match[2]);
  return Number.isSafeInteger(seq) ? { runId: match[1].toLowerCase(), seq } : null;
}

/**
 * PostgreSQL's announcements of new run events (LISTEN on one connection per process), handed to
 * whoever follows that run. On the embedded PGlite they arrive too: libs/pglite-server hands each
 * committed NOTIFY to every client that LISTENs on its channel. Best effort by design: followers also
 * read the table on a timer, so a lost connection only slows them down.
 */
@Injectable()
export class RunEventNotifications implements OnModuleDestroy {
  private readonly logger = new Logger(RunEventNotifications.name);
  private readonly followers = new Map<string, Set<(seq: number) => void>>();
  private listening: Promise<Client> | undefined;
  private closed = false;

  constructor(private readonly config: PylonConfig) {}

  /** Calls `onEvent` with the event's `seq` when an event of the run (its id in lower case, as the API takes it) is committed. Returns the way to stop. */
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
      const announced = parseAnnouncement(message.payload);
      if (announced) for (const wake of this.followers.get(announced.runId) ?? []) wake(announced.seq);
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
