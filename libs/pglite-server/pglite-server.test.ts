import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client, Pool, type PoolClient } from 'pg';
import { PgliteServer } from './index';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function newClient(url: string): Promise<Client> {
  const client = new Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** Minimal raw wire-protocol client, for what `pg` cannot be made to do. */
class RawConnection {
  private received = Buffer.alloc(0);
  private waiter: (() => void) | undefined;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.waiter?.();
    });
    socket.on('error', () => undefined);
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  send(...messages: Buffer[]): void {
    this.socket.write(Buffer.concat(messages));
  }

  /** Waits until at least `bytes` bytes arrived, then returns and consumes them all. */
  async read(bytes = 1): Promise<Buffer> {
    while (this.received.length < bytes) await new Promise<void>((resolve) => (this.waiter = resolve));
    const out = this.received;
    this.received = Buffer.alloc(0);
    return out;
  }

  async readUntilReady(): Promise<Buffer> {
    let all = Buffer.alloc(0);
    while (!(all.length >= 6 && all[all.length - 6] === 0x5a)) all = Buffer.concat([all, await this.read()]);
    return all;
  }
}

function untyped(code: number, body = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(8);
  header.writeInt32BE(8 + body.length, 0);
  header.writeInt32BE(code, 4);
  return Buffer.concat([header, body]);
}

function typed(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}

const cstr = (value: string): Buffer => Buffer.from(`${value}\0`);
const startupMessage = (): Buffer => untyped(196608, Buffer.concat([cstr('user'), cstr('postgres'), Buffer.from([0])]));

describe('PgliteServer (in-memory)', () => {
  let server: PgliteServer;
  let pool: Pool;

  before(async () => {
    server = await PgliteServer.start({});
    pool = new Pool({ connectionString: server.url, max: 10 });
    pool.on('error', () => undefined);
    await pool.query('CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)');
    await pool.query('INSERT INTO counter VALUES (1, 0)');
    await pool.query('CREATE TABLE items (id serial PRIMARY KEY, tag text NOT NULL)');
  });

  after(async () => {
    await pool.end();
    await server.stop();
  });

  it('LISTEN/NOTIFY: a notification committed by one client reaches the clients listening on its channel, and only them', async () => {
    const listener = await newClient(server.url);
    const other = await newClient(server.url);
    const notifier = await newClient(server.url);
    try {
      const heard: string[] = [];
      const strayed: string[] = [];
      listener.on('notification', (message) => heard.push(`${message.channel}:${message.payload}`));
      other.on('notification', (message) => strayed.push(`${message.channel}:${message.payload}`));
      notifier.on('notification', (message) => strayed.push(`${message.channel}:${message.payload}`));
      await listener.query('LISTEN run_events');
      await other.query('LISTEN "Other"');
      await notifier.query("SELECT pg_notify('run_events', 'one')");
      await notifier.query('BEGIN');
      await notifier.query("NOTIFY run_events, 'two'");
      await sleep(50);
      assert.deepEqual(heard, ['run_events:one'], 'nothing before the commit');
      await notifier.query('COMMIT');
      await pool.query("SELECT pg_notify('Other', 'three')");
      const deadline = Date.now() + 2_000;
      while ((heard.length < 2 || strayed.length < 1) && Date.now() < deadline) await sleep(10);
      assert.deepEqual(heard, ['run_events:one', 'run_events:two']);
      assert.deepEqual(strayed, ['Other:three'], 'the quoted channel, to its listener only');
      await listener.query('UNLISTEN run_events');
      await notifier.query("SELECT pg_notify('run_events', 'four')");
      await sleep(50);
      assert.equal(heard.length, 2);
    } finally {
      await Promise.all([listener.end(), other.end(), notifier.end()]);
    }
  });

  it("LISTEN/NOTIFY: a statement's several notifications reach each listener in their order", async () => {
    const listener = await newClient(server.url);
    const other = await newClient(server.url);
    try {
      const heard: string[] = [];
      const strayed: string[] = [];
      listener.on('notification', (message) => heard.push(message.payload ?? ''));
      other.on('notification', (message) => strayed.push(message.payload ?? ''));
      await listener.query('LISTEN several');
      await other.query('LISTEN elsewhere');
      await pool.query(`SELECT pg_notify('several', 'a'), pg_notify('elsewhere', 'b'), pg_notify('several', 'c'), pg_notify('several', 'd')`);
      const deadline = Date.now() + 2_000;
      while ((heard.length < 3 || strayed.length < 1) && Date.now() < deadline) await sleep(10);
      assert.deepEqual(heard, ['a', 'c', 'd']);
      assert.deepEqual(strayed, ['b']);
      assert.equal((await listener.query('SELECT 1 AS one')).rows[0].one, 1, 'the listener still reads its replies after them');
    } finally {
      await Promise.all([listener.end(), other.end()]);
    }
  });

  it('exposes a usable url', () => {
    assert.match(server.url, /^postgres:\/\/postgres:postgres@127\.0\.0\.1:\d+\/postgres$/);
    assert.ok(server.port > 0);
  });

  it('serializes concurrent read-modify-write transactions from pools and clients', async () => {
    const clients = await Promise.all(Array.from({ length: 5 }, () => newClient(server.url)));
    const increment = async (db: Pool | Client | PoolClient): Promise<void> => {
      await db.query('BEGIN');
      const { rows } = await db.query<{ n: number }>('SELECT n FROM counter WHERE id = $1', [1]);
      await sleep(Math.random() * 3);
      await db.query('UPDATE counter SET n = $1 WHERE id = $2', [rows[0].n + 1, 1]);
      await db.query('COMMIT');
    };
    const viaPool = async (): Promise<void> => {
      const client = await pool.connect();
      try {
        await increment(client);
      } finally {
        client.release();
      }
    };
    const jobs: Array<Promise<void>> = [];
    // A pg Client runs one transaction at a time: two each, sequentially, plus 40 through the pool.
    for (const client of clients) jobs.push(increment(client).then(() => increment(client)));
    for (let i = 0; i < 40; i++) jobs.push(viaPool());
    await Promise.all(jobs);
    await Promise.all(clients.map((client) => client.end()));
    const { rows } = await pool.query<{ n: number }>('SELECT n FROM counter WHERE id = 1');
    assert.equal(rows[0].n, 50);
  });

  it('rolls back one transaction while concurrent ones commit', async () => {
    const rollbackClient = await newClient(server.url);
    const rolledBack = (async () => {
      await rollbackClient.query('BEGIN');
      for (let i = 0; i < 5; i++) await rollbackClient.query('INSERT INTO items (tag) VALUES ($1)', ['rolled-back']);
      await sleep(20);
      await rollbackClient.query('ROLLBACK');
    })();
    const commits = Array.from({ length: 20 }, () => pool.query('INSERT INTO items (tag) VALUES ($1)', ['committed']));
    await Promise.all([rolledBack, ...commits]);
    await rollbackClient.end();
    const { rows } = await pool.query<{ tag: string; count: string }>(
      "SELECT tag, count(*) FROM items WHERE tag IN ('rolled-back', 'committed') GROUP BY tag",
    );
    assert.deepEqual(rows, [{ tag: 'committed', count: '20' }]);
  });

  it("keeps one client's error inside its own transaction", async () => {
    const failing = await newClient(server.url);
    await failing.query('BEGIN');
    await failing.query('INSERT INTO items (tag) VALUES ($1)', ['failed-tx']);
    const others = Array.from({ length: 10 }, async (_, i) => {
      const { rows } = await pool.query<{ v: number }>('SELECT $1::int * 2 AS v', [i]);
      return rows[0].v;
    });
    await assert.rejects(failing.query('SELECT 1 / 0'), /division by zero/);
    await assert.rejects(failing.query('SELECT 1'), /current transaction is aborted/);
    await failing.query('ROLLBACK');
    assert.deepEqual(
      await Promise.all(others),
      Array.from({ length: 10 }, (_, i) => i * 2),
    );
    const { rows } = await failing.query<{ ok: number }>('SELECT 1 AS ok');
    assert.equal(rows[0].ok, 1);
    await failing.end();
    const lost = await pool.query("SELECT 1 FROM items WHERE tag = 'failed-tx'");
    assert.equal(lost.rowCount, 0);
  });

  it('releases the session and rolls back when a client dies mid-transaction', async () => {
    const doomed = await newClient(server.url);
    await doomed.query('BEGIN');
    await doomed.query('INSERT INTO items (tag) VALUES ($1)', ['destroyed']);
    // Queued behind the doomed transaction; must not run inside it.
    const waiting = pool.query<{ n: string }>("SELECT count(*) AS n FROM items WHERE tag = 'destroyed'");
    await sleep(50);
    doomed.connection.stream.destroy();
    const { rows } = await waiting;
    assert.equal(rows[0].n, '0');
    const lost = await pool.query("SELECT 1 FROM items WHERE tag = 'destroyed'");
    assert.equal(lost.rowCount, 0);
  });

  it('releases the session when a client dies mid extended protocol', async () => {
    const raw = await RawConnection.open(server.port);
    raw.send(untyped(80877103));
    assert.equal((await raw.read(1)).toString(), 'N');
    raw.send(startupMessage());
    await raw.readUntilReady();
    raw.send(
      typed('P', cstr(''), cstr("INSERT INTO items (tag) VALUES ('half-sent')"), Buffer.from([0, 0])),
      typed('B', cstr(''), cstr(''), Buffer.from([0, 0, 0, 0, 0, 0])),
      typed('E', cstr(''), Buffer.from([0, 0, 0, 0])),
      typed('H'),
    );
    await raw.read(1);
    const waiting = pool.query('SELECT 1');
    await sleep(30);
    raw.socket.destroy();
    await waiting;
    // The implicit transaction of an unsynced Execute is not committed.
    const lost = await pool.query("SELECT 1 FROM items WHERE tag = 'half-sent'");
    assert.equal(lost.rowCount, 0);
  });

  it('answers queries pipelined in one write, each up to its Sync, an error skipping only the rest of its own', async () => {
    const raw = await RawConnection.open(server.port);
    raw.send(startupMessage());
    await raw.readUntilReady();
    const query = (sql: string) => [
      typed('P', cstr(''), cstr(sql), Buffer.from([0, 0])),
      typed('B', cstr(''), cstr(''), Buffer.from([0, 0, 0, 0, 0, 0])),
      typed('D', Buffer.from('P'), cstr('')),
      typed('E', cstr(''), Buffer.from([0, 0, 0, 0])),
      typed('S'),
    ];
    raw.send(...query('SELECT * FROM no_such_table'), ...query('SELECT 41 + 1 AS answer'));
    let replies = Buffer.alloc(0);
    const types: string[] = [];
    let data = '';
    while (types.filter((type) => type === 'Z').length < 2) {
      replies = Buffer.concat([replies, await raw.read()]);
      while (replies.length >= 5 && replies.length >= 1 + replies.readInt32BE(1)) {
        const length = replies.readInt32BE(1);
        types.push(String.fromCharCode(replies[0]!));
        if (replies[0] === 0x44) data = replies.subarray(11, 1 + length).toString();
        replies = replies.subarray(1 + length);
      }
    }
    // ErrorResponse then ReadyForQuery; then ParseComplete, BindComplete, RowDescription, DataRow, CommandComplete, ReadyForQuery.
    assert.deepEqual(types, ['E', 'Z', '1', '2', 'T', 'D', 'C', 'Z']);
    assert.equal(data, '42');
    raw.socket.destroy();
  });

  it('handles many sequential and concurrent connections', async () => {
    for (let i = 0; i < 30; i++) {
      const client = await newClient(server.url);
      await client.query('SELECT 1');
      await client.end();
    }
    const results = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const client = await newClient(server.url);
        const { rows } = await client.query<{ v: number }>('SELECT $1::int AS v', [i]);
        await client.end();
        return rows[0].v;
      }),
    );
    assert.deepEqual(
      results,
      Array.from({ length: 30 }, (_, i) => i),
    );
  });

  it('isolates named prepared statements per client', async () => {
    const a = await newClient(server.url);
    const b = await newClient(server.url);
    const [ra, rb] = await Promise.all([
      a.query<{ v: string }>({ name: 'same-name', text: "SELECT 'a' || $1::text AS v", values: ['1'] }),
      b.query<{ v: string }>({ name: 'same-name', text: "SELECT 'b' || $1::text AS v", values: ['2'] }),
    ]);
    assert.equal(ra.rows[0].v, 'a1');
    assert.equal(rb.rows[0].v, 'b2');
    const again = await a.query<{ v: string }>({ name: 'same-name', text: "SELECT 'a' || $1::text AS v", values: ['3'] });
    assert.equal(again.rows[0].v, 'a3');
    await Promise.all([a.end(), b.end()]);
    let left = '';
    for (let attempt = 0; attempt < 50 && left !== '0'; attempt++) {
      await sleep(10);
      const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM pg_prepared_statements');
      left = rows[0].n;
    }
    assert.equal(left, '0');
  });

  it('rejects COPY FROM STDIN without harming the database', async () => {
    const client = await newClient(server.url);
    await assert.rejects(client.query('COPY items (tag) FROM STDIN'), /COPY FROM STDIN is not supported/);
    const { rows } = await client.query<{ ok: number }>('SELECT 1 AS ok');
    assert.equal(rows[0].ok, 1);
    await client.end();
  });

  it('supports pgvector', async () => {
    const { rows } = await pool.query<{ d: number }>("SELECT '[1,2,3]'::vector <=> '[1,2,4]'::vector AS d");
    assert.ok(rows[0].d > 0 && rows[0].d < 0.05);
    await pool.query('CREATE TABLE docs (id int PRIMARY KEY, embedding vector(3))');
    await pool.query("INSERT INTO docs VALUES (1, '[1,0,0]'), (2, '[0,1,0]')");
    const nearest = await pool.query<{ id: number }>('SELECT id FROM docs ORDER BY embedding <-> $1 LIMIT 1', ['[0.1,0.9,0]']);
    assert.equal(nearest.rows[0].id, 2);
  });
});

describe('PgliteServer memory', () => {
  it('keeps nothing of the replies it served', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heapMiB = () => {
      gc();
      return process.memoryUsage().heapUsed / 2 ** 20;
    };
    // No maintenance pass: its query would clear what PGlite kept, and hide a leak between passes.
    const server = await PgliteServer.start({ maintenanceIntervalMs: 0 });
    const client = await newClient(server.url);
    try {
      await client.query(`CREATE TABLE wide AS SELECT g AS id, repeat('x', 1000) AS body FROM generate_series(1, 100) g`);
      const before = heapMiB();
      // 500 replies of 100 rows of 1 KB: about 50 MiB served.
      for (let i = 0; i < 500; i++) assert.equal((await client.query('SELECT id, body FROM wide')).rowCount, 100);
      const grown = heapMiB() - before;
      assert.ok(grown < 10, `the heap grew by ${grown.toFixed(1)} MiB over 50 MiB of replies`);
    } finally {
      await client.end();
      await server.stop();
    }
  });
});

describe('PgliteServer idle-in-transaction timeout', () => {
  it('disconnects a client idling in a transaction while another waits', async () => {
    const server = await PgliteServer.start({ idleInTransactionTimeoutMs: 200 });
    try {
      const idle = await newClient(server.url);
      const idleError = new Promise<Error>((resolve) => idle.once('error', resolve));
      await idle.query('BEGIN');
      await idle.query('CREATE TABLE t (id int)');
      // Connecting needs the session too, so this waits for the timeout.
      const other = await newClient(server.url);
      const { rows } = await other.query<{ n: string }>("SELECT count(*) AS n FROM pg_tables WHERE tablename = 't'");
      assert.equal(rows[0].n, '0');
      assert.match(String(await idleError), /idle-in-transaction timeout/);
      await other.end();
    } finally {
      await server.stop();
    }
  });
});

describe('PgliteServer persistence', () => {
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pglite-server-'));
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps data across restarts', async () => {
    const dataDir = join(dir, 'data');
    const first = await PgliteServer.start({ dataDir });
    const writer = await newClient(first.url);
    await writer.query('CREATE TABLE notes (id int PRIMARY KEY, body text, embedding vector(2))');
    await writer.query("INSERT INTO notes VALUES (1, $1, '[1,2]')", ['kept']);
    await writer.end();
    await first.stop();

    const second = await PgliteServer.start({ dataDir });
    try {
      const reader = await newClient(second.url);
      const { rows } = await reader.query<{ body: string; embedding: string }>('SELECT body, embedding::text FROM notes');
      assert.deepEqual(rows, [{ body: 'kept', embedding: '[1,2]' }]);
      await reader.end();
    } finally {
      await second.stop();
    }
  });
});
