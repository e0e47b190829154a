import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { PylonError, type ModelFallback, type ToolCall } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { AgentRun } from '@pylon/db';
import { RunEventNotifications } from './repositories/run-event-notifications';
import { RunEventRepository, type StoredRunEvent } from './repositories/run-event.repository';
import type { NewRunEvent } from './repositories/agent-run-row';
import { toAgentRunView } from './run-view';

/** A run's log ends with the event of its final status, which carries the run as the API returns it. */
export const TERMINAL_RUN_EVENTS: readonly string[] = ['succeeded', 'failed'];

const PAGE_LIMIT_MAX = 1_000;
/** Output deltas are written together once this much text or time has gathered, not one row per token. */
const DELTA_FLUSH_CHARS = 400;
const DELTA_FLUSH_MS = 200;

/** A live stream of a run's events: the run as read when it opened, its events, and the way to stop listening. */
export interface RunEventStream {
  run: AgentRun;
  events(signal: AbortSignal): AsyncGenerator<StoredRunEvent>;
  close(): void;
}

/**
 * One run's announced events, from the moment of listening: the highest `seq` announced, a wait for more,
 * and the events the announcements carried, so a follower can send them without reading them back.
 */
class RunAnnouncements {
  private latest = 0;
  private readonly carried = new Map<number, StoredRunEvent>();
  private wake: (() => void) | undefined;
  readonly stop: () => void;

  constructor(notifications: RunEventNotifications, runId: string) {
    this.stop = notifications.subscribe(runId, ({ seq, event }) => {
      this.latest = Math.max(this.latest, seq);
      if (event && this.carried.size < PAGE_LIMIT_MAX) this.carried.set(seq, event);
      this.wake?.();
    });
  }

  /** Resolves once an event after `seq` has been announced (at once if one was), after `timeoutMs`, or when `signal` aborts. */
  async beyond(seq: number, timeoutMs: number, signal: AbortSignal): Promise<void> {
    if (this.latest > seq || signal.aborted) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.wake = () => {
        if (this.latest > seq) done();
      };
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /**
   * Every announced event after `seq`, in order, when the announcements carried each of them; otherwise
   * (none announced, one too large to carry, one announced before listening began) undefined: read the log.
   */
  takeAfter(seq: number): StoredRunEvent[] | undefined {
    for (const carriedSeq of this.carried.keys()) if (carriedSeq <= seq) this.carried.delete(carriedSeq);
    if (this.latest <= seq) return undefined;
    const events: StoredRunEvent[] = [];
    for (let next = seq + 1; next <= this.latest; next++) {
      const event = this.carried.get(next);
      if (!event) return undefined;
      events.push(event);
    }
    for (const event of events) this.carried.delete(event.seq);
    return events;
  }
}

/**
 * A run's event log: what the workflow's steps record (status changes, output deltas, tool calls and
 * results, the terminal event), read as pages or followed live. Following reads PostgreSQL, woken by
 * its notifications, so any API replica can serve any stream.
 */
@Injectable()
export class RunEventsService {
  constructor(
    private readonly events: RunEventRepository,
    private readonly notifications: RunEventNotifications,
    private readonly config: PylonConfig,
  ) {}

  /** Stored events after `after`, oldest first; 404 for a run that is not the organisation's. */
  async page(orgId: string, runId: string, after: number, limit: number): Promise<{ events: StoredRunEvent[]; more: boolean }> {
    const size = Math.min(Math.max(limit, 1), PAGE_LIMIT_MAX);
    const found = await this.events.runWithEventsAfter(orgId, runId, after, size + 1);
    if (!found) throw PylonError.notFound('no such run');
    return { events: found.events.slice(0, size), more: found.events.length > size };
  }

  /**
   * Opens a live stream of a run's events after `after`: listens for the run's announcements first, so
   * that none is missed, then reads the run and its stored events in one statement (404 unless the run
   * is the organisation's). The caller iterates `events` (see follow) and closes the stream.
   */
  async openStream(orgId: string, runId: string, after: number): Promise<RunEventStream> {
    const announcements = new RunAnnouncements(this.notifications, runId);
    try {
      const found = await this.events.runWithEventsAfter(orgId, runId, after, PAGE_LIMIT_MAX);
      if (!found) throw PylonError.notFound('no such run');
      return {
        run: found.run,
        events: (signal) => this.follow(orgId, found.run, after, found.events, announcements, signal),
        close: () => announcements.stop(),
      };
    } catch (error) {
      announcements.stop();
      throw error;
    }
  }

  /**
   * Every event after `after`, as stored (starting with `stored`, read when the stream opened) and then as
   * it is committed, ending with the terminal event (or when `signal` aborts). New events come with their
   * announcements; the log is read again when an announcement came without its event, or on a timer in
   * case announcements are lost. A run that is not final yet writes its terminal event with its final
   * state, so only a run final already can lack one in its log (purged by retention): its stream ends with
   * its final state as the terminal event, unless the log shows the end was already sent.
   */
  private async *follow(
    orgId: string,
    run: AgentRun,
    after: number,
    stored: StoredRunEvent[],
    announcements: RunAnnouncements,
    signal: AbortSignal,
  ): AsyncGenerator<StoredRunEvent> {
    let last = after;
    let batch = stored;
    for (;;) {
      for (const event of batch) {
        yield event;
        last = event.seq;
        if (TERMINAL_RUN_EVENTS.includes(event.type)) return;
      }
      if (batch.length < PAGE_LIMIT_MAX) {
        if (TERMINAL_RUN_EVENTS.includes(run.status)) {
          if (!(await this.events.holdsAny(orgId, run.id, TERMINAL_RUN_EVENTS))) {
            yield { seq: last + 1, type: run.status, data: { ...toAgentRunView(run) }, createdAt: run.updatedAt };
          }
          return;
        }
        await announcements.beyond(last, this.config.runEventsPollMs, signal);
        if (signal.aborted) return;
      }
      batch = announcements.takeAfter(last) ?? (await this.events.after(orgId, run.id, last, PAGE_LIMIT_MAX));
    }
  }

  /** Gathers a model turn's output deltas and writes them in order, a few at a time. */
  outputRecorder(orgId: string, runId: string): OutputRecorder {
    return new OutputRecorder((texts) => this.events.append(orgId, runId, texts.map(outputDelta)));
  }

  /**
   * The model's tool calls, after the output deltas not written yet, in one write; within the caller's
   * transaction when `manager` is given.
   */
  recordToolCalls(orgId: string, runId: string, calls: ToolCall[], unwrittenDeltas: string[], manager?: EntityManager): Promise<void> {
    return this.events.append(
      orgId,
      runId,
      [
        ...unwrittenDeltas.map(outputDelta),
        ...calls.map((call) => ({ type: 'tool_call', data: { call_id: call.id, name: call.name, arguments: call.arguments } })),
      ],
      manager,
    );
  }

  /** The answer did not match the version's schema: the run asks the model once more. */
  recordOutputRepair(orgId: string, runId: string, fault: string): Promise<void> {
    return this.events.append(orgId, runId, [{ type: 'output_repair', data: { fault } }]);
  }

  /** A turn its model could not take went to the next model of the version's chain. */
  recordModelFallback(orgId: string, runId: string, fallback: ModelFallback): Promise<void> {
    return this.events.append(orgId, runId, [{ type: 'model_fallback', data: { ...fallback } }]);
  }

  /** What a turn's model saw of its conversation: items shown, left out, folded into a summary, and who counted their tokens. */
  recordHistory(
    orgId: string,
    runId: string,
    included: number,
    omitted: number,
    compacted = 0,
    countedBy: 'provider' | 'estimate' = 'estimate',
  ): Promise<void> {
    return this.events.append(orgId, runId, [
      { type: 'history', data: { items: included, omitted, ...(compacted > 0 && { compacted }), tokens_counted_by: countedBy } },
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
