import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { PrivateTargets, RefusedUrlError } from './address-guard';
import { WebhookConnectionPool, pinnedLookup, type ConnectionPoolLimits } from './connection-pool';
import { postWebhook, type WebhookPost } from './sender';

const LOOPBACK = PrivateTargets.parse(['loopback']);
const at = (address: string): LookupAddress[] => [{ address, family: 4 }];

/** A receiver on every loopback address that counts its connections and the requests each carried. */
class Receiver {
  server!: Server;
  port = 0;
  connections: Socket[] = [];
  requests: Array<{ socket: Socket; nth: number; localAddress: string }> = [];
  /** Answers a request, or returns false to destroy the socket without an answer. */
  answer: (request: IncomingMessage, nth: number) => boolean = () => true;

  async start(): Promise<void> {
    this.server = createServer((request: IncomingMessage, response: ServerResponse) => {
      const socket = request.socket;
      const nth = this.requests.filter((entry) => entry.socket === socket).length + 1;
      this.requests.push({ socket, nth, localAddress: socket.localAddress ?? '' });
      request.resume();
      request.on('end', () => {
        if (!this.answer(request, nth)) return socket.destroy();
        response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    this.server.keepAliveTimeout = 60_000;
    this.server.on('connection', (socket: Socket) => this.connections.push(socket));
    await new Promise<void>((resolve) => this.server.listen(0, '0.0.0.0', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  reset(): void {
    for (const socket of this.connections) socket.destroy();
    this.connections = [];
    this.requests = [];
    this.answer = () => true;
  }

  get open(): number {
    return this.connections.filter((socket) => !socket.closed).length;
  }

  async stop(): Promise<void> {
    this.reset();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const receiver = new Receiver();
before(() => receiver.start());
beforeEach(() => receiver.reset());
after(() => receiver.stop());

function post(pool: WebhookConnectionPool | undefined, url: string, addresses?: LookupAddress[], extra: Partial<WebhookPost> = {}) {
  return postWebhook({
    url: new URL(url),
    headers: { 'content-type': 'application/json' },
    body: '{"id":"1"}',
    timeoutMs: 5_000,
    privateTargets: LOOPBACK,
    ...(addresses ? { addresses } : {}),
    ...(pool ? { connections: pool } : {}),
    ...extra,
  });
}

function newPool(limits: Partial<ConnectionPoolLimits> = {}, now?: () => number): WebhookConnectionPool {
  return new WebhookConnectionPool({ maxPools: 8, maxIdleSocketsPerPool: 4, idleSocketMs: 4_000, ...limits }, now);
}

/** Until the receiver has seen the sockets close (the client's close reaches it a moment later). */
async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await sleep(10);
  assert.ok(check());
}

describe('webhook connections kept alive per receiver', () => {
  it('reuse one connection for the attempts to the same origin at the same pinned address', async () => {
    const pool = newPool();
    try {
      for (let i = 0; i < 5; i++) assert.equal((await post(pool, `http://127.0.0.1:${receiver.port}/hook/${i}`, at('127.0.0.1'))).statusCode, 200);
      assert.equal(receiver.connections.length, 1);
      assert.deepEqual(
        receiver.requests.map((request) => request.nth),
        [1, 2, 3, 4, 5],
      );
      assert.equal(pool.size, 1);
    } finally {
      pool.close();
    }
  });

  it('connect to the pinned address, not to a DNS answer, and never share a socket between two pinned addresses', async () => {
    const pool = newPool();
    try {
      // `receiver.invalid` resolves nowhere: the connection goes to the checked address it was pinned to.
      const url = `http://receiver.invalid:${receiver.port}/hook`;
      assert.equal((await post(pool, url, at('127.0.0.1'))).statusCode, 200);
      assert.equal((await post(pool, url, at('127.0.0.2'))).statusCode, 200);
      assert.equal((await post(pool, url, at('127.0.0.1'))).statusCode, 200);
      assert.equal(receiver.connections.length, 2);
      assert.deepEqual(
        receiver.requests.map((request) => [request.localAddress.replace(/^::ffff:/, ''), request.nth]),
        [
          ['127.0.0.1', 1],
          ['127.0.0.2', 1],
          ['127.0.0.1', 2],
        ],
      );
      assert.equal(pool.size, 2);
    } finally {
      pool.close();
    }
  });

  it('refuse a pinned address the policy does not allow, before any connection', async () => {
    const pool = newPool();
    try {
      const response = await post(pool, `http://receiver.invalid:${receiver.port}/hook`, at('127.0.0.1'), { privateTargets: PrivateTargets.NONE });
      assert.equal(response.refused, true);
      assert.equal(response.statusCode, null);
      assert.match(response.error!, /refused: receiver\.invalid resolves to a non-public address \(127\.0\.0\.1\)/);
      assert.equal(receiver.connections.length, 0);
    } finally {
      pool.close();
    }
  });

  it('pinnedLookup answers with the pinned addresses only, and refuses when one is not allowed or none is pinned', () => {
    const answers: unknown[] = [];
    const lookup = pinnedLookup([...at('127.0.0.1'), { address: '::1', family: 6 }], LOOPBACK);
    lookup('example.com', { all: true }, (error, addresses) => answers.push([error, addresses]));
    lookup('example.com', {}, (error, address, family) => answers.push([error, address, family]));
    assert.deepEqual(answers, [
      [
        null,
        [
          { address: '127.0.0.1', family: 4 },
          { address: '::1', family: 6 },
        ],
      ],
      [null, '127.0.0.1', 4],
    ]);
    for (const [addresses, allowed] of [
      [at('127.0.0.1'), PrivateTargets.NONE],
      [at('169.254.169.254'), PrivateTargets.parse(['0.0.0.0/0'])],
      [[], LOOPBACK],
    ] as const) {
      let refusal: unknown;
      pinnedLookup(addresses, allowed)('example.com', {}, (error) => (refusal = error));
      assert.ok(refusal instanceof RefusedUrlError);
    }
  });

  it('keep at most maxIdleSocketsPerPool idle sockets per pool', async () => {
    const pool = newPool({ maxIdleSocketsPerPool: 1 });
    try {
      const url = `http://127.0.0.1:${receiver.port}/hook`;
      const responses = await Promise.all([1, 2, 3].map(() => post(pool, url, at('127.0.0.1'))));
      assert.deepEqual(
        responses.map((response) => response.statusCode),
        [200, 200, 200],
      );
      assert.equal(receiver.connections.length, 3);
      await eventually(() => receiver.open === 1);
    } finally {
      pool.close();
    }
  });

  it('close an idle socket after idleSocketMs', async () => {
    const pool = newPool({ idleSocketMs: 100 });
    try {
      assert.equal((await post(pool, `http://127.0.0.1:${receiver.port}/hook`, at('127.0.0.1'))).statusCode, 200);
      assert.equal(receiver.open, 1);
      await eventually(() => receiver.open === 0);
    } finally {
      pool.close();
    }
  });

  it('keep at most maxPools pools, retiring the least recently used one and closing its idle sockets', async () => {
    const pool = newPool({ maxPools: 2 });
    try {
      const url = `http://receiver.invalid:${receiver.port}/hook`;
      for (const address of ['127.0.0.1', '127.0.0.2', '127.0.0.1', '127.0.0.3']) assert.equal((await post(pool, url, at(address))).statusCode, 200);
      assert.equal(pool.size, 2);
      assert.equal(receiver.connections.length, 3);
      // 127.0.0.2 was the least recently used: its socket is closed, the others stay open.
      await eventually(() => receiver.open === 2);
      assert.equal((await post(pool, url, at('127.0.0.1'))).statusCode, 200);
      assert.equal(receiver.connections.length, 3);
    } finally {
      pool.close();
    }
  });

  it('drop a pool idle for longer than an idle socket lives', async () => {
    let now = 0;
    const pool = newPool({ idleSocketMs: 1_000 }, () => now);
    try {
      const url = `http://receiver.invalid:${receiver.port}/hook`;
      assert.equal((await post(pool, url, at('127.0.0.1'))).statusCode, 200);
      now = 5_000;
      pool.agentFor(new URL(url), at('127.0.0.2'));
      assert.equal(pool.size, 1);
      await eventually(() => receiver.open === 0);
    } finally {
      pool.close();
    }
  });

  it('retry once on a new connection when a kept-alive socket turns out closed before any answer', async () => {
    const pool = newPool();
    try {
      receiver.answer = (_request, nth) => nth === 1;
      const url = `http://127.0.0.1:${receiver.port}/hook`;
      assert.equal((await post(pool, url, at('127.0.0.1'))).statusCode, 200);
      const response = await post(pool, url, at('127.0.0.1'));
      assert.equal(response.statusCode, 200);
      assert.equal(response.error, null);
      assert.deepEqual(
        receiver.requests.map((request) => request.nth),
        [1, 2, 1],
      );
    } finally {
      pool.close();
    }
  });

  it('do not retry a reset on a new connection: it is a failed attempt, as before', async () => {
    const pool = newPool();
    try {
      receiver.answer = () => false;
      const response = await post(pool, `http://127.0.0.1:${receiver.port}/hook`, at('127.0.0.1'));
      assert.equal(response.statusCode, null);
      assert.equal(response.refused, false);
      assert.ok(response.error);
      assert.equal(receiver.requests.length, 1);
    } finally {
      pool.close();
    }
  });
});
