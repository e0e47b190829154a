import { createParser } from 'eventsource-parser';
import { ApiFailure, failureOf, type Schemas } from './client';
import { storedApiKey } from './session';

export type RunEvent = Pick<Schemas['RunEventView'], 'seq' | 'type' | 'data'>;

const TERMINAL = new Set(['succeeded', 'failed']);

/**
 * Follows a run's events as Server-Sent Events until its terminal event. EventSource cannot send an
 * Authorization header, so this is fetch with a streamed body, parsed by eventsource-parser; a dropped
 * connection resumes after the last event seen (`Last-Event-ID`), as EventSource would.
 */
export async function followRunEvents(runId: string, onEvent: (event: RunEvent) => void, signal: AbortSignal): Promise<void> {
  let lastSeq = 0;
  let ended = false;
  let failures = 0;
  while (!ended && !signal.aborted) {
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream', authorization: `Bearer ${storedApiKey() ?? ''}` };
      if (lastSeq > 0) headers['last-event-id'] = String(lastSeq);
      const response = await fetch(`/api/v1/agent-runs/${encodeURIComponent(runId)}/events`, { headers, signal, cache: 'no-store' });
      if (!response.ok || !response.body) throw await failureOf(response);
      const parser = createParser({
        onEvent(message) {
          const seq = Number(message.id);
          if (!Number.isInteger(seq) || seq <= lastSeq) return;
          lastSeq = seq;
          const type = (message.event ?? 'message') as RunEvent['type'];
          onEvent({ seq, type, data: JSON.parse(message.data) as RunEvent['data'] });
          if (TERMINAL.has(type)) ended = true;
        },
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
        failures = 0;
      }
    } catch (error) {
      if (signal.aborted) return;
      // An answer of the API (404, 401, 403) will not change by retrying; a dropped connection may.
      if (error instanceof ApiFailure && error.status > 0 && error.status < 500) throw error;
      if (++failures > 5) throw error instanceof ApiFailure ? error : new ApiFailure(0, 'network_error', String(error));
    }
    if (!ended && !signal.aborted) await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * 2 ** failures, 10_000)));
  }
}
