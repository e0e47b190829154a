import type { Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { guardCopyFromStdin } from './copy-guard';
import {
  type Frame,
  FrontendFramer,
  MessageType,
  TxStatus,
  errorResponse,
  lastReadyStatus,
  parseMessage,
  queryMessage,
  syncMessage,
} from './protocol';
import { listenCommand, takeNotifications, type NotificationRouter } from './notifications';
import type { Release, SessionLock } from './session-lock';
import { StatementNamespace } from './statement-names';

export interface SessionContext {
  readonly db: Pick<PGlite, 'execProtocolRawStream'>;
  readonly lock: SessionLock;
  /** 0 disables the timeout. */
  readonly idleInTransactionTimeoutMs: number;
  /** Hands NOTIFY messages to the clients that LISTEN on their channel. */
  readonly notifications: NotificationRouter<ClientSession>;
  warn(message: string, error?: unknown): void;
}

/** Messages after which the session holds unnamed statement/portal state until a Sync. */
const EXTENDED_PROTOCOL = new Set<number>([
  MessageType.Parse,
  MessageType.Bind,
  MessageType.Describe,
  MessageType.Execute,
  MessageType.Close,
  MessageType.Flush,
]);

const ENCRYPTION_REFUSED = Buffer.from('N');
const FAREWELL_GRACE_MS = 1_000;

/**
 * One client connection. Its messages run one at a time, in order, while it owns the PGlite
 * session; it owns the session from its first message until a ReadyForQuery reports the
 * session idle (outside a transaction), like PgBouncer's transaction pooling.
 */
export class ClientSession {
  /** Settles once the client is gone and the session it may have held is clean and released. */
  readonly done: Promise<void>;
  private resolveDone: () => void = () => undefined;
  private readonly framer = new FrontendFramer();
  private readonly statements: StatementNamespace;
  private readonly queue: Frame[] = [];
  /** Replies not written yet: one write per batch of messages the client sent together (a query's Parse…Sync). */
  private unwritten: Buffer[] = [];
  private release: Release | undefined;
  private status: number = TxStatus.Idle;
  private midExtended = false;
  private running = false;
  private closed = false;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly socket: Socket,
    id: number,
    private readonly context: SessionContext,
  ) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    this.statements = new StatementNamespace(`c${id}_`);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => this.close());
    socket.on('close', () => this.close());
  }

  /** Drops the connection; the session is cleaned up after any message already running. */
  close(farewell?: Buffer): void {
    if (this.closed) return;
    this.closed = true;
    this.context.notifications.forget(this);
    this.queue.length = 0;
    this.clearIdleTimer();
    if (farewell && this.socket.writable) {
      this.flush();
      this.socket.end(farewell);
      setTimeout(() => this.socket.destroy(), FAREWELL_GRACE_MS).unref();
    } else {
      this.socket.destroy();
    }
    this.pump();
  }

  private receive(chunk: Buffer): void {
    if (this.closed) return;
    try {
      for (const frame of this.framer.push(chunk)) this.queue.push(frame);
    } catch (error) {
      this.context.warn('closing a client after a protocol violation', error);
      this.close();
      return;
    }
    this.pump();
  }

  private pump(): void {
    if (this.running) return;
    this.running = true;
    this.clearIdleTimer();
    void this.run();
  }

  private async run(): Promise<void> {
    while (!this.closed) {
      const frame = this.queue.shift();
      if (!frame) {
        this.running = false;
        this.armIdleTimer();
        return;
      }
      try {
        await this.handle(frame);
      } catch (error) {
        this.context.warn('closing a client after a failed message', error);
        this.close();
      }
    }
    // Once closed, `running` stays true so that nothing runs after the clean-up.
    await this.cleanUp();
    this.resolveDone();
  }

  private async handle(frame: Frame): Promise<void> {
    switch (frame.kind) {
      case 'ssl-request':
      case 'gssenc-request':
        this.socket.write(ENCRYPTION_REFUSED);
        return;
      case 'cancel-request':
        // Postgres closes cancel connections too; there is no backend per client to cancel.
        this.close();
        return;
      case 'startup':
        return this.execute(frame.data);
      case 'message':
        return this.handleMessage(frame.type, frame.data);
    }
  }

  private async handleMessage(type: number, data: Buffer): Promise<void> {
    switch (type) {
      case MessageType.Terminate:
        this.close();
        return;
      case MessageType.CopyData:
      case MessageType.CopyDone:
      case MessageType.CopyFail:
        // COPY FROM STDIN never starts (see copy-guard); Postgres ignores these outside COPY too.
        return;
      default:
        if (!EXTENDED_PROTOCOL.has(type)) return this.execute(this.prepare(data));
        return this.executeBatch({ type, data });
    }
  }

  /** What PGlite is given for a client's message: its statement names made the client's own, COPY FROM STDIN refused. */
  private prepare(message: Buffer): Buffer {
    return guardCopyFromStdin(this.statements.rewrite(message));
  }

  /**
   * An extended-protocol message with those queued after it, up to and including the Sync (or Flush) that
   * ends them, in one call to PGlite, as the client sent them together: each call costs its own setup and
   * output flush in PGlite, and a query is four or five messages.
   */
  private executeBatch(first: { type: number; data: Buffer }): Promise<void> {
    const batch = [first];
    let last = first.type;
    while (last !== MessageType.Sync && last !== MessageType.Flush) {
      const next = this.queue[0];
      if (next?.kind !== 'message' || !(EXTENDED_PROTOCOL.has(next.type) || next.type === MessageType.Sync)) break;
      this.queue.shift();
      batch.push(next);
      last = next.type;
    }
    return this.execute(Buffer.concat(batch.map((each) => this.prepare(each.data))), { extended: true, flushRequested: last === MessageType.Flush });
  }

  private async execute(message: Buffer, { extended = false, flushRequested = false } = {}): Promise<void> {
    if (!this.release) {
      this.release = await this.context.lock.acquire();
      if (this.closed) return;
    }
    if (extended) this.midExtended = true;
    const listening = listenCommand(message);
    const { output, status } = await this.exec(message);
    if (listening && status !== TxStatus.Failed) this.context.notifications.apply(this, listening);
    const { rest, notifications } = takeNotifications(output);
    if (rest.length > 0) this.unwritten.push(rest);
    // A client waits for replies only after a Sync (ReadyForQuery), a Flush, or when it has sent nothing more.
    if (status !== undefined || flushRequested || this.queue.length === 0) this.flush();
    this.context.notifications.route(notifications);
    if (status === TxStatus.Idle) this.releaseSession();
  }

  /**
   * Writes the replies held back, in one system call: a loopback write costs tens of microseconds of
   * CPU, and a query in the extended protocol has five replies.
   */
  private flush(): void {
    if (this.unwritten.length === 0) return;
    const replies = this.unwritten.length === 1 ? this.unwritten[0]! : Buffer.concat(this.unwritten);
    this.unwritten = [];
    if (!this.socket.destroyed) this.socket.write(replies);
  }

  /** Notifications on channels this client listens on (written between whole messages of its own, after the replies before them). */
  deliver(message: Buffer): void {
    if (this.closed || this.socket.destroyed) return;
    this.flush();
    this.socket.write(message);
  }

  private async exec(message: Buffer): Promise<{ output: Buffer; status: number | undefined }> {
    const output = await execRaw(this.context.db, message);
    const status = lastReadyStatus(output);
    if (status !== undefined) {
      this.status = status;
      this.midExtended = false;
    }
    return { output, status };
  }

  private async cleanUp(): Promise<void> {
    const closes = this.statements.closeAll();
    if (!this.release && closes.length === 0) return;
    try {
      this.release ??= await this.context.lock.acquire();
      if (this.midExtended) {
        // A bare Sync would commit the implicit transaction of an Execute; Postgres aborts it on
        // disconnect. A failing Parse makes the Sync roll it back (or leaves status 'E').
        await this.exec(parseMessage('pglite_server_client_disconnected'));
        await this.exec(syncMessage());
      }
      if (this.status !== TxStatus.Idle) await this.exec(queryMessage('ROLLBACK'));
      if (closes.length > 0) {
        for (const close of closes) await this.exec(close);
        await this.exec(syncMessage());
      }
    } catch (error) {
      this.context.warn('could not reset the session after a client left', error);
    } finally {
      this.releaseSession();
    }
  }

  private releaseSession(): void {
    const release = this.release;
    this.release = undefined;
    release?.();
  }

  private armIdleTimer(): void {
    const timeout = this.context.idleInTransactionTimeoutMs;
    if (!this.release || this.closed || timeout <= 0) return;
    this.idleTimer = setTimeout(() => this.onIdleTimeout(), timeout);
    this.idleTimer.unref();
  }

  private onIdleTimeout(): void {
    this.idleTimer = undefined;
    // Holding the session is harmless while nobody else needs it.
    if (this.context.lock.waiting === 0) {
      this.armIdleTimer();
      return;
    }
    this.close(
      errorResponse('FATAL', '25P03', 'terminating connection due to idle-in-transaction timeout: another client was waiting for the PGlite session'),
    );
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}

/**
 * The replies to a client's message, as the bytes PGlite wrote. Not `execProtocolRaw`: that one also parses
 * every reply into objects and keeps them until the next `query()` or `exec()` (PGlite 0.5's CurrentQuery),
 * so a server that only forwards bytes paid for the parsing and held every row it served in memory. No
 * filesystem sync: the server's filesystems (memory, Node's) write through, and PGlite's sync of them is empty.
 */
async function execRaw(db: SessionContext['db'], message: Buffer): Promise<Buffer> {
  const chunks: Buffer[] = [];
  // Copies: each chunk is a view into PGlite's memory, reused by its next write.
  await db.execProtocolRawStream(message, { syncToFs: false, onRawData: (bytes) => chunks.push(Buffer.from(bytes)) });
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}
