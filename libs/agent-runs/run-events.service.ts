import { Injectable } from '@nestjs/common';
import { ApiError, type ToolCall } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { AgentRun, AgentRunRepository, RunEventNotifications, RunEventRepository, type NewRunEvent, type StoredRunEvent } from '@pylon/db';
import { toAgentRunView } from './run-view';

/** A run's log ends with the event of its final status, which carries the run as the API returns it. */
export const TERMINAL_RUN_EVENTS: readonly string[] = ['succeeded', 'failed'];

const PAGE_LIMIT_MAX = 1_000;
/** Output deltas are written together once this much text or time has gathered, not one row per token. */
const DELTA_FLUSH_CHARS = 400;
const DELTA_FLUSH_MS = 200;

/**
 * A run's event log: what the workflow's steps record (status changes, output deltas, tool calls and
 * results, the terminal event), read as pages or followed live. Following reads PostgreSQL, woken by
 * its notifications, so any API replica can serve any stream.
 */
@Injectable()
export class RunEventsService {
  constructor(
    private readonly events: RunEventRepository,
    private readonly runs: AgentRunRepository,
    private readonly notifications: RunEventNotifications,
    private readonly config: PylonConfig,
  ) {}

  /** Stored events after `after`, oldest first; 404 for a run that is not the organisation's. */
  async page(orgId: string, runId: string, after: number, limit: number): Promise<{ events: StoredRunEvent[]; more: boolean }> {
    await this.requireRun(orgId, runId);
    const size = Math.min(Math.max(limit, 1), PAGE_LIMIT_MAX);
    const events = await this.events.after(orgId, runId, after, size + 1);
    return { events: events.slice(0, size), more: events.length > size };
  }

  /** The run, or 404 unless it exists in this organisation (before a stream starts). */
  async requireRun(orgId: string, runId: string): Promise<AgentRun> {
    const run = await this.runs.findById(orgId, runId);
    if (!run) throw ApiError.notFound('no such run');
    return run;
  }

  /**
   * Every event after `after`, as stored and then as it is committed, ending with the terminal event
   * (or when `signal` aborts). A run that is not final yet writes its terminal event with its final
   * state, so only a run final already can lack one in its log (purged by retention): its stream ends
   * with its final state as the terminal event, unless the log shows the end was already sent.
   */
  async *follow(orgId: string, run: AgentRun, after: number, signal: AbortSignal): AsyncGenerator<StoredRunEvent> {
    let last = after;
    let wake: (() => void) | undefined;
    // An announcement that arrives while the log is being read must not be lost until the next safety read.
    let announced = false;
    const unsubscribe = this.notifications.subscribe(run.id, () => {
      announced = true;
      wake?.();
    });
    try {
      for (;;) {
        announced = false;
        const batch = await this.events.after(orgId, run.id, last, PAGE_LIMIT_MAX);
        for (const event of batch) {
          yield event;
          last = event.seq;
          if (TERMINAL_RUN_EVENTS.includes(event.type)) return;
        }
        if (batch.length === PAGE_LIMIT_MAX) continue;
        if (TERMINAL_RUN_EVENTS.includes(run.status)) {
          if (!(await this.events.holdsAny(orgId, run.id, TERMINAL_RUN_EVENTS))) {
            yield { seq: last + 1, type: run.status, data: { ...toAgentRunView(run) }, createdAt: run.updatedAt };
          }
          return;
        }
        if (announced) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, this.config.runEventsPollMs);
          function done() {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            resolve();
          }
          wake = done;
          signal.addEventListener('abort', done, { once: true });
        });
        wake = undefined;
        if (signal.aborted) return;
      }
    } finally {
      unsubscribe();
    }
  }

  /** Gathers a model turn's output deltas and writes them in order, a few at a time. */
  outputRecorder(orgId: string, runId: string): OutputRecorder {
    return new OutputRecorder((texts) => this.events.append(orgId, runId, texts.map(outputDelta)));
  }

  /** The model's tool calls, after the output deltas not written yet, in one write. */
  recordToolCalls(orgId: string, runId: string, calls: ToolCall[], unwrittenDeltas: string[] = []): Promise<void> {
    return this.events.append(orgId, runId, [
      ...unwrittenDeltas.map(outputDelta),
      ...calls.map((call) => ({ type: 'tool_call', data: { call_id: call.id, name: call.name, arguments: call.arguments } })),
    ]);
  }

  recordToolResult(orgId: string, runId: string, call: ToolCall, result: Record<string, unknown>): Promise<void> {
    return this.events.append(orgId, runId, [{ type: 'tool_result', data: { call_id: call.id, name: call.name, ...result } }]);
  }

  /** Retention: drops events older than RUN_EVENTS_RETENTION_DAYS. How many went. */
  purgeExpired(now = new Date()): Promise<number> {
    return this.events.deleteOlderThan(new Date(now.getTime() - this.config.runEventsRetentionDays * 86_400_000));
  }
}

export function outputDelta(text: string): NewRunEvent {
  return { type: 'output_delta', data: { text } };
}

/** Deltas in, ordered batched writes out; `takeUnwritten` waits for the writes and hands back the rest. */
export class OutputRecorder {
  private pending: string[] = [];
  private pendingChars = 0;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly write: (texts: string[]) => Promise<void>) {}

  add(text: string): void {
    if (!text) return;
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= DELTA_FLUSH_CHARS) this.drain();
    else this.timer ??= setTimeout(() => this.drain(), DELTA_FLUSH_MS);
  }

  /** Waits for the writes under way and hands back what is not written yet, for the caller's own write. */
  async takeUnwritten(): Promise<string[]> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.writing;
    const texts = this.pending;
    this.pending = [];
    this.pendingChars = 0;
    return texts;
  }

  /** Drops what was not written yet (the turn failed or was cancelled). */
  discard(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
    this.pendingChars = 0;
  }

  private drain(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const texts = this.pending;
    this.pending = [];
    this.pendingChars = 0;
    // Chained, so batches land in order; a failed write fails the turn at flush.
    this.writing = this.writing.then(() => this.write(texts));
    this.writing.catch(() => undefined); // handled: `takeUnwritten` rethrows it
  }
}
