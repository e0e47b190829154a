import { useEffect, useRef, useState } from 'react';
import { call, type Schemas } from './client';

/**
 * An event as the stream carries it: its place in the run's log, its type and its data (no timestamp). Its
 * type is any string: a newer server may send types this console does not know yet.
 */
export type RunEvent = Pick<Schemas['RunEventView'], 'seq' | 'data'> & { type: string };

/**
 * Follows a run's events until its terminal event, with the SDK's stream (fetch with a streamed body, since
 * EventSource cannot send an Authorization header; a dropped connection resumes after the last event seen
 * with `Last-Event-ID`). Returns quietly once `signal` aborts.
 */
export async function followRunEvents(runId: string, onEvent: (event: RunEvent) => void, signal: AbortSignal): Promise<void> {
  try {
    await call(async (pylon) => {
      for await (const event of pylon.agentRuns.stream(runId, { signal, maxReconnects: 5 })) onEvent(event as RunEvent);
    });
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}

/**
 * A run's events from its stream, kept in order (none while `runId` is null): `onEvent` for each as it
 * arrives, `onEnd` after the terminal event; `live` until then.
 */
export function useRunEvents(runId: string | null, handlers: { onEvent?: (event: RunEvent) => void; onEnd?: () => void } = {}) {
  const [events, setEvents] = useState<RunEvent[]>([]);
  const [streamError, setStreamError] = useState<unknown>(null);
  const [live, setLive] = useState(false);
  // The latest handlers, so that following a run does not start again when the page renders.
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    setEvents([]);
    setStreamError(null);
    setLive(runId !== null);
    if (runId === null) return;
    const controller = new AbortController();
    followRunEvents(
      runId,
      (event) => {
        setEvents((seen) => [...seen, event]);
        latest.current.onEvent?.(event);
      },
      controller.signal,
    )
      .then(
        () => !controller.signal.aborted && latest.current.onEnd?.(),
        (error: unknown) => setStreamError(error),
      )
      .finally(() => !controller.signal.aborted && setLive(false));
    return () => controller.abort();
  }, [runId]);
  return { events, streamError, live };
}
