import { call, type Schemas } from './client';

/** An event as the stream carries it: its place in the run's log, its type and its data (no timestamp). */
export type RunEvent = Pick<Schemas['RunEventView'], 'seq' | 'type' | 'data'>;

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
