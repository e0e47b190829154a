import { LRUCache } from 'lru-cache';
import type { Embedder } from './embedder';

/** A query's vector as the cache hands it out: one frozen array per text, shared by every caller. */
export type QueryVector = readonly number[];

interface InFlight {
  key: string;
  promise: Promise<QueryVector>;
  controller: AbortController;
  waiters: number;
}

/**
 * Embeds single query strings through `embedder`, remembering the last `maxEntries` vectors
 * (least recently used first out), keyed by embedder id and exact text. Concurrent misses for the
 * same text share one request; failures are not remembered. `maxEntries` 0 turns all of this off.
 *
 * A caller's signal cancels only that caller's wait. The shared request is aborted once every
 * caller waiting on it has given up; otherwise it runs to completion (bounded by the embedder's
 * own timeout) and its result is cached.
 *
 * Vectors are frozen and shared rather than copied per caller, so what is derived from one (its SQL
 * literal, see `vectorLiteral` in @pylon/db) can be remembered with it.
 */
export class CachedQueryEmbedder {
  /** Null when `maxEntries` is 0. */
  private readonly cache: LRUCache<string, QueryVector> | null;
  private readonly inFlight = new Map<string, InFlight>();

  constructor(
    readonly embedder: Embedder,
    readonly maxEntries: number,
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 0) {
      throw new RangeError(`query embedding cache size must be a non-negative integer, got ${maxEntries}`);
    }
    this.cache = maxEntries > 0 ? new LRUCache({ max: maxEntries }) : null;
  }

  get id(): string {
    return this.embedder.id;
  }

  get dimensions(): number {
    return this.embedder.dimensions;
  }

  /** Vectors currently cached. */
  get size(): number {
    return this.cache?.size ?? 0;
  }

  /** The vector of one query (frozen). */
  async embedQuery(text: string, signal?: AbortSignal): Promise<QueryVector> {
    signal?.throwIfAborted();
    if (!this.cache) return Object.freeze((await this.embedder.embed([text], signal))[0]!);
    const key = `${this.embedder.id}\u0000${text}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const entry = this.inFlight.get(key) ?? this.start(key, text);
    return this.wait(entry, signal);
  }

  private start(key: string, text: string): InFlight {
    const controller = new AbortController();
    const promise = this.embedder.embed([text], controller.signal).then(([vector]) => {
      if (!vector) throw new Error(`${this.embedder.id} returned no vector for the query`);
      return Object.freeze(vector);
    });
    const entry: InFlight = { key, promise, controller, waiters: 0 };
    this.inFlight.set(key, entry);
    promise.then(
      (vector) => {
        if (this.inFlight.get(key) === entry) this.inFlight.delete(key);
        if (!controller.signal.aborted) this.cache?.set(key, vector);
      },
      () => {
        if (this.inFlight.get(key) === entry) this.inFlight.delete(key);
      },
    );
    return entry;
  }

  /** The shared result, or this caller's abort reason as soon as its signal fires. */
  private wait(entry: InFlight, signal: AbortSignal | undefined): Promise<QueryVector> {
    entry.waiters++;
    if (!signal) return entry.promise;
    return new Promise<QueryVector>((resolve, reject) => {
      const onAbort = (): void => {
        if (--entry.waiters === 0) {
          if (this.inFlight.get(entry.key) === entry) this.inFlight.delete(entry.key);
          entry.controller.abort(signal.reason);
        }
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      entry.promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }
}
