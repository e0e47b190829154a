import { ConnectionError, PylonError } from './errors.js';
import { delayBefore, failureOf, sleep, type Transport } from './transport.js';

/** One event of a run: its number in the run's log (1, 2, 3…), its type and its data. */
export interface RunEvent<Data = unknown> {
  seq: number;
  type: string;
  data: Data;
}

/** A run's stream ends after one of these; their data is the run as `agentRuns.get` returns it. */
export const TERMINAL_EVENTS: ReadonlySet<string> = new Set(['succeeded', 'failed']);

export interface StreamOptions {
  /** Start after this event (the stream then sends the events after it); 0 or absent: from the first. */
  after?: number;
  /** How many reconnections in a row, without an event between them, before giving up (default 10). */
  maxReconnects?: number;
  signal?: AbortSignal;
}

/**
 * A run's events over Server-Sent Events, as an async iterator: the stored ones, then each new one as it
 * happens, ending after the terminal event. A dropped connection (or one the server closed early) is
 * opened again with `Last-Event-ID`, so no event is lost and none is repeated.
 */
export async function* streamRunEvents(transport: Transport, runId: string, options: StreamOptions = {}): AsyncGenerator<RunEvent> {
  let lastSeq = options.after ?? 0;
  let reconnects = 0;
  const path = `/api/v1/agent-runs/${encodeURIComponent(runId)}/events`;
  for (;;) {
    let retryAfter: number | null = null;
    try {
      const response = await transport.openStream(path, lastSeq, options.signal);
      if (!response.ok) {
        const failure = await failureOf(response);
        if (failure.status !== 429 && failure.status !== 503) throw failure;
        retryAfter = failure.retryAfter;
      } else {
        for await (const event of parseEvents(response.body!)) {
          if (event.seq <= lastSeq) continue;
          lastSeq = event.seq;
          reconnects = 0;
          yield event;
          if (TERMINAL_EVENTS.has(event.type)) return;
        }
      }
    } catch (error) {
      if (options.signal?.aborted || error instanceof PylonError) throw error;
      if (!(error instanceof ConnectionError) && !(error instanceof TypeError)) throw error;
    }
    if (++reconnects > (options.maxReconnects ?? 10))
      throw new ConnectionError(`the event stream of run ${runId} dropped ${reconnects - 1} times in a row`);
    await sleep(delayBefore(reconnects - 1, retryAfter), options.signal);
  }
}

/** The events of an SSE body: `id:` is the event's seq, `event:` its type, `data:` its JSON; comments are skipped. */
async function* parseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<RunEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let fields: { id?: string; event?: string; data: string[] } = { data: [] };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (fields.id !== undefined && fields.data.length) {
            yield { seq: Number(fields.id), type: fields.event ?? 'message', data: JSON.parse(fields.data.join('\n')) };
          }
          fields = { data: [] };
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const name = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (name === 'id') fields.id = value;
        else if (name === 'event') fields.event = value;
        else if (name === 'data') fields.data.push(value);
      }
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => undefined);
  }
}
