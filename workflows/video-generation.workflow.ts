import { ApplicationFailure, CancellationScope, isCancellation, proxyActivities, sleep } from '@temporalio/workflow';
import {
  NON_RETRYABLE_VIDEO_ERRORS,
  VIDEO_CANCELLED_REASON,
  type VideoActivities,
  type VideoPollResult,
  type VideoWorkflowInput,
} from '@pylon/contracts';
import { announce } from './announce';
import { describeFailure } from './failure-reason';

/** Provider calls: backoff on rate limits, 5xx and timeouts; no retry when the provider refuses. */
const provider = proxyActivities<VideoActivities>({
  startToCloseTimeout: '1 minute',
  // A worker that dies mid-call is noticed by its missing heartbeat, and the call retried on another.
  heartbeatTimeout: '10 seconds',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 10,
    nonRetryableErrorTypes: [...NON_RETRYABLE_VIDEO_ERRORS],
  },
});

/** Failing and refunding must happen: retry until the database takes it. */
const ledger = proxyActivities<VideoActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * The offline renderer runs ffmpeg inside this activity: it heartbeats with the render's progress, so a
 * dead worker's render is retried on another within seconds, and a cancel kills ffmpeg. Its whole
 * timeout is the generation's.
 */
function renderer(timeoutSeconds: number) {
  return proxyActivities<VideoActivities>({
    startToCloseTimeout: `${timeoutSeconds} seconds`,
    heartbeatTimeout: '10 seconds',
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumAttempts: 3, nonRetryableErrorTypes: [...NON_RETRYABLE_VIDEO_ERRORS] },
  });
}

const FIRST_POLL_MS = 1_000;
const MAX_POLL_MS = 30_000;

/**
 * A video generation or extension: the offline renderer makes it in one activity; a provider's job
 * (Luma) is submitted, then polled on durable timers with backoff (the projection shows `processing`
 * and the estimate) until it completes and is stored. A failure, a refusal or the overall timeout marks
 * it failed and refunds its tokens once. A cancel stops the render or the provider's job first, then
 * fails and refunds it with reason `cancelled`.
 */
export async function videoGenerationWorkflow(generation: VideoWorkflowInput): Promise<{ state: 'completed' | 'failed'; reason?: string }> {
  try {
    const { timeoutSeconds, renders } = await provider.submitVideo(generation);
    const status = renders ? await renderer(timeoutSeconds).renderVideo(generation) : await pollUntilDone(generation, timeoutSeconds);
    if (status.state === 'failed') throw ApplicationFailure.nonRetryable(status.reason, 'VideoGenerationFailed');
    await announce(generation.orgId, status.state === 'completed' ? status.eventId : null);
    return { state: 'completed' };
  } catch (failure) {
    if (isCancellation(failure)) {
      await CancellationScope.nonCancellable(async () => {
        // Refunded even if the provider cannot be told (its retries exhausted): the caller asked to stop paying.
        await provider.cancelVideo(generation).catch(() => undefined);
        await announce(generation.orgId, await ledger.failVideo({ ...generation, reason: VIDEO_CANCELLED_REASON }));
      });
      throw failure;
    }
    const reason = describeFailure(failure);
    await announce(generation.orgId, await ledger.failVideo({ ...generation, reason }));
    return { state: 'failed', reason };
  }
}

/** Polls the provider's job until it completes or fails, or the generation's time is up. */
async function pollUntilDone(generation: VideoWorkflowInput, timeoutSeconds: number): Promise<VideoPollResult> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  for (let delay = FIRST_POLL_MS; ; delay = Math.min(MAX_POLL_MS, Math.round(delay * 1.5))) {
    await sleep(Math.min(delay, Math.max(0, deadline - Date.now())));
    const status = await provider.pollVideo(generation);
    if (status.state === 'completed' || status.state === 'failed') return status;
    if (Date.now() >= deadline) {
      throw ApplicationFailure.nonRetryable(`the provider did not finish within ${timeoutSeconds} seconds`, 'VideoGenerationTimedOut');
    }
  }
}
