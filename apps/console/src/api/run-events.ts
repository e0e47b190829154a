import { useEffect, useEffectEvent, useState } from 'react';
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
  // What the stream of one run gave; a stream of another run starts from nothing.
  const [stream, setStream] = useState<FollowedStream>(() => followed(runId));
  const current = stream.runId === runId ? stream : followed(runId);
  // The latest handlers, as effect events, so that following a run does not start again when the page renders.
  const onEvent = useEffectEvent((event: RunEvent) => handlers.onEvent?.(event));
  const onEnd = useEffectEvent(() => handlers.onEnd?.());
  useEffect(() => {
    if (runId === null) return;
    const controller = new AbortController();
    const update = (change: (stream: FollowedStream) => Partial<FollowedStream>) =>
      !controller.signal.aborted &&
      setStream((seen) => {
        const base = seen.runId === runId ? seen : followed(runId);
        return { ...base, ...change(base) };
      });
    followRunEvents(
      runId,
      (event) => {
        update((seen) => ({ events: [...seen.events, event] }));
        onEvent(event);
      },
      controller.signal,
    )
      .then(
        () => !controller.signal.aborted && onEnd(),
        (error: unknown) => update(() => ({ streamError: error })),
      )
      .finally(() => !controller.signal.aborted && update(() => ({ live: false })));
    return () => controller.abort();
  }, [runId]);
  return { events: current.events, streamError: current.streamError, live: current.live };
}

interface FollowedStream {
  runId: string | null;
  events: RunEvent[];
  streamError: unknown;
  live: boolean;
}

/** A run's stream before its first event: live until its end, unless there is no run. */
function followed(runId: string | null): FollowedStream {
  return { runId, events: [], streamError: null, live: runId !== null };
}
