import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { PylonConfig } from '@pylon/config';
import { API_KEY_CHANGES_CHANNEL } from './migrations/1765200000000-api-key-changes';

/** How long after a lost connection the next attempt to listen waits. */
const RECONNECT_DELAY_MS = 1_000;

/**
 * PostgreSQL's announcements of changed API keys (LISTEN on one connection per process; a trigger on
 * api_keys sends them). A cache of keys may be trusted only while `hearing()`: a process that cannot hear
 * a revocation must look every key up. `generation` grows with every announcement and every lost
 * connection, so that a lookup started before one is not cached after it.
 */
@Injectable()
export class ApiKeyChanges implements OnModuleDestroy {
  private readonly logger = new Logger(ApiKeyChanges.name);
  private readonly listeners = new Set<(keyId: string | 'all') => void>();
  private client: Client | undefined;
  private connected = false;
  private closed = false;
  private retryAt = 0;
  generation = 0;

  constructor(private readonly config: PylonConfig) {}

  /** Whether every change committed from now on will be heard; starts listening when not yet. */
  hearing(): boolean {
    if (!this.client && !this.closed && Date.now() >= this.retryAt) this.listen();
    return this.connected;
  }

  /** Calls `onChange` with a changed key's id, or 'all' when announcements may have been missed. */
  onChange(onChange: (keyId: string | 'all') => void): void {
    this.listeners.add(onChange);
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    await this.client?.end().catch(() => undefined);
  }

  private announce(keyId: string | 'all'): void {
    this.generation++;
    for (const listener of this.listeners) listener(keyId);
  }

  private listen(): void {
    const client = new Client({ connectionString: this.config.requireDatabaseUrl(), application_name: 'pylon-api-key-changes' });
    this.client = client;
    const lost = (error?: unknown) => {
      if (this.client !== client) return;
      if (error && !this.closed)
        this.logger.warn(`API key change announcements stopped (${(error as Error).message}); keys are looked up on every request until they resume`);
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
      .then(() => client.query(`LISTEN ${API_KEY_CHANGES_CHANNEL}`))
      .then(() => {
        if (this.client !== client) return;
        // Whatever changed before LISTEN took effect was not heard.
        this.announce('all');
        this.connected = true;
      })
      .catch(lost);
  }
}
