import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { PylonConfig } from '@pylon/config';
import { RUN_EVENTS_CHANNEL } from '@pylon/db';
import type { StoredRunEvent } from './run-event.repository';

/** One announcement: the run and the event's seq, and the event itself unless it was too large to carry. */
export interface RunAnnouncement {
  runId: string;
  seq: number;
  /** The event as stored, carried by its announcement (see the RunEventPayloads migration). */
  event?: StoredRunEvent;
}

const ANNOUNCEMENT = /^([0-9a-f-]{36}):([1-9][0-9]{0,15})(?::(\{.*))?$/is;

/** The run an announcement is about (in lower case), read without the rest, to skip runs nobody here follows. */
export function announcedRunId(payload: string | undefined): string | null {
  return payload !== undefined && payload.length > 37 && payload[36] === ':' ? payload.slice(0, 36).toLowerCase() : null;
}

/**
 * What the run_events trigger announces, `<run_id>:<seq>`, optionally followed by `:<the event as JSON>`.
 * Anything else on the channel is ignored: a follower woken without a seq would have nothing to wait for
 * and read the log again and again; the followers' timer reads it anyway. A carried event that does not
 * read as one is dropped and the announcement kept: the follower reads the event from the table.
 */
export function parseAnnouncement(payload: string | undefined): RunAnnouncement | null {
  const match = ANNOUNCEMENT.exec(payload ?? '');
  if (!match) return null;
  const seq = Number(match[2]);
  if (!Number.isSafeInteger(seq)) return null;
  const announcement: RunAnnouncement = { runId: match[1]!.toLowerCase(), seq };
  const event = match[3] === undefined ? undefined : carriedEvent(match[3], seq);
  return event ? { ...announcement, event } : announcement;
}

function carriedEvent(json: string, seq: number): StoredRunEvent | undefined {
  let carried: unknown;
  try {
    carried = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (carried === null || typeof carried !== 'object') return undefined;
  const { type, data, created_at: createdAt } = carried as Record<string, unknown>;
  if (typeof type !== 'string' || data === null || typeof data !== 'object' || Array.isArray(data) || typeof createdAt !== 'string') return undefined;
  const created = new Date(createdAt);
  return Number.isNaN(created.getTime()) ? undefined : { seq, type, data: data as Record<string, unknown>, createdAt: created };
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
  private readonly followers = new Map<string, Set<(announced: RunAnnouncement) => void>>();
  private listening: Promise<Client> | undefined;
  private closed = false;

  constructor(private readonly config: PylonConfig) {}

  /** Calls `onEvent` with the announcement when an event of the run (its id in lower case, as the API takes it) is committed. Returns the way to stop. */
  subscribe(runId: string, onEvent: (announced: RunAnnouncement) => void): () => void {
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
      const runId = announcedRunId(message.payload);
      const followers = runId === null ? undefined : this.followers.get(runId);
      if (!followers) return;
      const announced = parseAnnouncement(message.payload);
      if (announced) for (const wake of followers) wake(announced);
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
