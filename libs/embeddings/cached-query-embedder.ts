import type { Embedder } from './embedder';

interface InFlight {
  key: string;
  promise: Promise<number[]>;
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
 */
export class CachedQueryEmbedder {
  private readonly cache = new Map<string, number[]>();
  private readonly inFlight = new Map<string, InFlight>();

  constructor(
    readonly embedder: Embedder,
    readonly maxEntries: number,
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 0) {
      throw new RangeError(`query embedding cache size must be a non-negative integer, got ${maxEntries}`);
    }
  }

  get id(): string {
    return this.embedder.id;
  }

  get dimensions(): number {
    return this.embedder.dimensions;
  }

  /** Vectors currently cached. */
  get size(): number {
    return this.cache.size;
  }

  /** The vector of one query; the caller may modify it. */
  async embedQuery(text: string, signal?: AbortSignal): Promise<number[]> {
    signal?.throwIfAborted();
    if (this.maxEntries === 0) return (await this.embedder.embed([text], signal))[0]!;
    const key = `${this.embedder.id}\u0000${text}`;
    const cached = this.cache.get(key);
    if (cached) {
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached.slice();
    }
    const entry = this.inFlight.get(key) ?? this.start(key, text);
    return (await this.wait(entry, signal)).slice();
  }

  private start(key: string, text: string): InFlight {
    const controller = new AbortController();
    const promise = this.embedder.embed([text], controller.signal).then(([vector]) => {
      if (!vector) throw new Error(`${this.embedder.id} returned no vector for the query`);
      return vector;
    });
    const entry: InFlight = { key, promise, controller, waiters: 0 };
    this.inFlight.set(key, entry);
    promise.then(
      (vector) => {
        if (this.inFlight.get(key) === entry) this.inFlight.delete(key);
        if (!controller.signal.aborted) this.remember(key, vector);
      },
      () => {
        if (this.inFlight.get(key) === entry) this.inFlight.delete(key);
      },
    );
    return entry;
  }

  private remember(key: string, vector: number[]): void {
    this.cache.delete(key);
    this.cache.set(key, vector);
    while (this.cache.size > this.maxEntries) {
      this.cache.delete(this.cache.keys().next().value!);
    }
  }

  /** The shared result, or this caller's abort reason as soon as its signal fires. */
  private wait(entry: InFlight, signal: AbortSignal | undefined): Promise<number[]> {
    entry.waiters++;
    if (!signal) return entry.promise;
    return new Promise<number[]>((resolve, reject) => {
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
