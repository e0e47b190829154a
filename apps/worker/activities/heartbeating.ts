import { Context } from '@temporalio/activity';

/**
 * Runs an activity's work while heartbeating every `everyMs`, so a worker that dies mid-way is noticed
 * within the activity's heartbeat timeout (not its whole timeout) and a cancel reaches the work. The work
 * gets the activity's cancellation signal.
 */
export async function heartbeating<T>(everyMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const context = Context.current();
  // A local activity has no heartbeat: the workflow task that runs it stands in for it.
  if (context.info.isLocal) return work(context.cancellationSignal);
  const heartbeat = setInterval(() => context.heartbeat(), everyMs);
  try {
    return await work(context.cancellationSignal);
  } finally {
    clearInterval(heartbeat);
  }
}
