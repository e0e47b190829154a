import { mkdirSync } from 'node:fs';
import { type AddressInfo, type Server, type Socket, createServer } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { NotificationRouter } from './notifications';
import { vector } from '@electric-sql/pglite-pgvector';
import { ClientSession, type SessionContext } from './client-session';
import { SessionLock } from './session-lock';
import { TableMaintenance } from './table-maintenance';

export interface PgliteServerOptions {
  /** Persistent data folder; undefined = in-memory. One server per folder at a time. */
  dataDir?: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 = a random free port. */
  port?: number;
  /**
   * A client that sits idle inside a transaction for this long while another client waits for
   * the session is disconnected (FATAL 25P03) and its transaction rolled back. Turns
   * "transaction on one connection waits for a query on another" deadlocks into errors.
   * Default 60 000; 0 disables.
   */
  idleInTransactionTimeoutMs?: number;
  /** How often the tables are checked for what autovacuum would do (see TableMaintenance). Default 10 000; 0 disables. */
  maintenanceIntervalMs?: number;
}

const DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;
const DEFAULT_MAINTENANCE_INTERVAL_MS = 10_000;

/**
 * Serves one embedded PGlite (with pgvector) over the Postgres wire protocol, so several
 * processes can share it through ordinary `pg` clients. Clients take turns on the single
 * PGlite session one transaction at a time.
 */
export class PgliteServer {
  readonly url: string;
  readonly port: number;
  private readonly sessions = new Set<ClientSession>();
  private stopping: Promise<void> | undefined;
  private nextClientId = 1;

  private constructor(
    private readonly db: PGlite,
    private readonly server: Server,
    private readonly context: SessionContext,
    private readonly maintenance: TableMaintenance,
    host: string,
  ) {
    this.port = (server.address() as AddressInfo).port;
    const urlHost = host.includes(':') ? `[${host}]` : host;
    // PGlite accepts any user, password and database name; it always runs as postgres/postgres.
    this.url = `postgres://postgres:postgres@${urlHost}:${this.port}/postgres`;
    server.on('connection', (socket) => this.accept(socket));
    server.on('error', (error) => context.warn('server error', error));
  }

  static async start(options: PgliteServerOptions = {}): Promise<PgliteServer> {
    const host = options.host ?? '127.0.0.1';
    if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
    const db = await PGlite.create({ dataDir: options.dataDir, extensions: { vector } });
    try {
      await db.exec('CREATE EXTENSION IF NOT EXISTS vector');
      const server = createServer();
      await listen(server, options.port ?? 0, host);
      const context: SessionContext = {
        db,
        lock: new SessionLock(),
        idleInTransactionTimeoutMs: options.idleInTransactionTimeoutMs ?? DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS,
        notifications: new NotificationRouter(),
        warn: (message, error) => process.emitWarning(error === undefined ? message : `${message}: ${String(error)}`, 'PgliteServer'),
      };
      const maintenance = new TableMaintenance(db, context.lock, context.warn);
      maintenance.start(options.maintenanceIntervalMs ?? DEFAULT_MAINTENANCE_INTERVAL_MS);
      return new PgliteServer(db, server, context, maintenance, host);
    } catch (error) {
      await db.close();
      throw error;
    }
  }

  /** Disconnects every client, rolls back their open transactions, and closes (flushes) the database. */
  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async shutdown(): Promise<void> {
    const serverClosed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    const maintained = this.maintenance.stop();
    const sessions = [...this.sessions];
    for (const session of sessions) session.close();
    await Promise.all(sessions.map((session) => session.done));
    await serverClosed;
    await maintained;
    await this.db.close();
  }

  private accept(socket: Socket): void {
    if (this.stopping) {
      socket.destroy();
      return;
    }
    const session = new ClientSession(socket, this.nextClientId++, this.context);
    this.sessions.add(session);
    void session.done.then(() => this.sessions.delete(session));
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
