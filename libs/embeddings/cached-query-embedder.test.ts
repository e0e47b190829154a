import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CachedQueryEmbedder } from './cached-query-embedder';
import type { Embedder } from './embedder';
import { EmbeddingTransientError } from './embedding-errors';

/** Counts calls; each text's vector is [length, 1]; `gate` holds replies until released; `failNext` fails once. */
class CountingEmbedder implements Embedder {
  readonly id = 'test/counting';
  readonly dimensions = 2;
  calls: string[][] = [];
  signals: Array<AbortSignal | undefined> = [];
  failNext = false;
  gate: Promise<void> | undefined;

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    this.calls.push(texts);
    this.signals.push(signal);
    if (this.gate) await this.gate;
    signal?.throwIfAborted();
    if (this.failNext) {
      this.failNext = false;
      throw new EmbeddingTransientError('provider down');
    }
    return texts.map((text) => [text.length, 1]);
  }
}

function deferred(): { promise: Promise<void>; release: () => void } {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

describe('CachedQueryEmbedder', () => {
  it('hits after a miss, handing every caller the same frozen vector', async () => {
    const inner = new CountingEmbedder();
    const cache = new CachedQueryEmbedder(inner, 10);
    const first = await cache.embedQuery('hello');
    assert.ok(Object.isFrozen(first));
    assert.throws(() => ((first as number[])[0] = 99), TypeError);
    assert.equal(await cache.embedQuery('hello'), first);
    assert.deepEqual(first, [5, 1]);
    assert.deepEqual(await cache.embedQuery('hi'), [2, 1]);
    assert.deepEqual(inner.calls, [['hello'], ['hi']]);
    assert.equal(cache.size, 2);
    assert.equal(cache.id, 'test/counting');
    assert.equal(cache.dimensions, 2);
  });

  it('evicts the least recently used entry', async () => {
    const inner = new CountingEmbedder();
    const cache = new CachedQueryEmbedder(inner, 2);
    await cache.embedQuery('a');
    await cache.embedQuery('b');
    await cache.embedQuery('a'); // a is now the most recently used
    await cache.embedQuery('c'); // evicts b
    assert.equal(cache.size, 2);
    inner.calls = [];
    await cache.embedQuery('a');
    await cache.embedQuery('c');
    assert.deepEqual(inner.calls, []);
    await cache.embedQuery('b');
    assert.deepEqual(inner.calls, [['b']]);
  });

  it('size 0 caches nothing', async () => {
    const inner = new CountingEmbedder();
    const cache = new CachedQueryEmbedder(inner, 0);
    await cache.embedQuery('a');
    await cache.embedQuery('a');
    assert.equal(inner.calls.length, 2);
    assert.equal(cache.size, 0);
  });

  it('concurrent identical misses share one request', async () => {
    const inner = new CountingEmbedder();
    const gate = deferred();
    inner.gate = gate.promise;
    const cache = new CachedQueryEmbedder(inner, 10);
    const waiting = [cache.embedQuery('same'), cache.embedQuery('same'), cache.embedQuery('other')];
    gate.release();
    assert.deepEqual(await Promise.all(waiting), [
      [4, 1],
      [4, 1],
      [5, 1],
    ]);
    assert.deepEqual(inner.calls, [['same'], ['other']]);
  });

  it('failures are shared by concurrent callers but not cached', async () => {
    const inner = new CountingEmbedder();
    inner.failNext = true;
    const cache = new CachedQueryEmbedder(inner, 10);
    const results = await Promise.allSettled([cache.embedQuery('q'), cache.embedQuery('q')]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['rejected', 'rejected'],
    );
    assert.ok((results[0] as PromiseRejectedResult).reason instanceof EmbeddingTransientError);
    assert.equal(inner.calls.length, 1);
    assert.equal(cache.size, 0);
    assert.deepEqual(await cache.embedQuery('q'), [1, 1]);
    assert.equal(inner.calls.length, 2);
  });

  it("one caller's abort leaves the others' shared request running", async () => {
    const inner = new CountingEmbedder();
    const gate = deferred();
    inner.gate = gate.promise;
    const cache = new CachedQueryEmbedder(inner, 10);
    const controller = new AbortController();
    const leaving = cache.embedQuery('q', controller.signal);
    const staying = cache.embedQuery('q', new AbortController().signal);
    controller.abort(new Error('client went away'));
    await assert.rejects(leaving, /client went away/);
    gate.release();
    assert.deepEqual(await staying, [1, 1]);
    assert.equal(inner.calls.length, 1);
    assert.equal(inner.signals[0]!.aborted, false);
    assert.equal(cache.size, 1);
  });

  it('the shared request is aborted once every caller has given up, and a later caller starts afresh', async () => {
    const inner = new CountingEmbedder();
    const gate = deferred();
    inner.gate = gate.promise;
    const cache = new CachedQueryEmbedder(inner, 10);
    const controller = new AbortController();
    const leaving = cache.embedQuery('q', controller.signal);
    controller.abort(new Error('gone'));
    await assert.rejects(leaving, /gone/);
    assert.equal(inner.signals[0]!.aborted, true);
    const later = cache.embedQuery('q');
    gate.release();
    assert.deepEqual(await later, [1, 1]);
    assert.equal(inner.calls.length, 2);
    assert.equal(cache.size, 1);
  });

  it('rejects a negative size', () => {
    assert.throws(() => new CachedQueryEmbedder(new CountingEmbedder(), -1), RangeError);
  });
});
