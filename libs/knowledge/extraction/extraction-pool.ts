import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { ExtractionOutcome, ExtractionTask, ThreadMessage } from './extraction-thread';
import { reasons } from './reasons';
import { ExtractionFailure, type DocumentFileType, type ExtractedDocument, type ExtractionOptions } from './types';

export interface ExtractionLoad {
  reading: number;
  waiting: number;
  threads: number;
}

export interface ExtractionPoolSettings {
  /** Files read at once, one thread each. */
  threads: number;
  /** The most one file may take. */
  timeoutMs: number;
  /** The most one page of a PDF may take. */
  pageTimeoutMs: number;
  /** The most heap one thread may use (V8's old generation). */
  heapMb: number;
}

/** A thread idle this long is ended; the next file starts another. */
const IDLE_THREAD_MS = 60_000;

/**
 * Files are read in a pool of worker threads, never on the event loop the process's other work
 * shares (agent runs, webhooks, video): a parse that hangs, loops or swells is ended by terminating
 * its thread, which the pool replaces, and the document fails with a reason a person understands.
 * Each thread has its own heap limit; the wall clock per file and per page is kept here, on the side
 * that stays responsive.
 */
export class ExtractionPool {
  private pool: Piscina<ExtractionTask, ExtractionOutcome> | undefined;
  /** Files handed to the pool and not finished: those being read, and those waiting for a thread. */
  private inPool = 0;

  constructor(private readonly settings: ExtractionPoolSettings) {}

  async extract(path: string, type: DocumentFileType, { limits, onProgress, signal }: ExtractionOptions): Promise<ExtractedDocument> {
    signal?.throwIfAborted();
    const { timeoutMs, pageTimeoutMs, heapMb } = this.settings;
    const stop = new AbortController();
    let limitReached: string | undefined;
    const giveUp = (reason: string) => {
      limitReached ??= reason;
      stop.abort();
    };
    const fileTimer = setTimeout(() => giveUp(reasons.tookTooLong(timeoutMs / 1000)), timeoutMs);
    let pageTimer: NodeJS.Timeout | undefined;
    const startPage = (page: number) => {
      clearTimeout(pageTimer);
      if (type === 'pdf') pageTimer = setTimeout(() => giveUp(reasons.pageTookTooLong(page, pageTimeoutMs / 1000)), pageTimeoutMs);
    };
    const progress = new MessageChannel();
    progress.port1.on('message', (message: ThreadMessage) => {
      if ('endThread' in message) return giveUp(message.endThread);
      const { done, total } = message;
      onProgress?.(done, total);
      if (done < total) startPage(done + 1);
      else clearTimeout(pageTimer);
    });
    const cancel = () => stop.abort();
    signal?.addEventListener('abort', cancel, { once: true });
    startPage(1);
    this.inPool++;
    try {
      const outcome = await this.threads().run(
        { path, type, limits, progress: progress.port2 },
        { transferList: [progress.port2] as never, signal: stop.signal },
      );
      if (!outcome.ok) throw new ExtractionFailure(outcome.reason);
      return outcome.document;
    } catch (error) {
      if (limitReached) throw new ExtractionFailure(limitReached);
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw new ExtractionFailure(reasons.neededTooMuchMemory(heapMb));
      signal?.throwIfAborted();
      throw error;
    } finally {
      this.inPool--;
      clearTimeout(fileTimer);
      clearTimeout(pageTimer);
      progress.port1.close();
      signal?.removeEventListener('abort', cancel);
    }
  }

  /** Files being read, files waiting for a thread, and the threads there may be. */
  get load(): ExtractionLoad {
    const waiting = this.pool?.queueSize ?? 0;
    return { reading: Math.max(0, this.inPool - waiting), waiting, threads: this.settings.threads };
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = undefined;
  }

  private threads(): Piscina<ExtractionTask, ExtractionOutcome> {
    this.pool ??= new Piscina({
      filename: join(__dirname, 'extraction-thread.js'),
      minThreads: 0,
      maxThreads: this.settings.threads,
      idleTimeout: IDLE_THREAD_MS,
      resourceLimits: { maxOldGenerationSizeMb: this.settings.heapMb },
    });
    return this.pool;
  }
}
