import { ApplicationFailure, CancellationScope, isCancellation, proxyActivities, sleep } from '@temporalio/workflow';
import { NON_RETRYABLE_VIDEO_ERRORS, VIDEO_CANCELLED_REASON, type VideoActivities, type VideoWorkflowInput } from '@pylon/contracts';
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

const FIRST_POLL_MS = 1_000;
const MAX_POLL_MS = 30_000;

/**
 * A video generation or extension: submit it to the provider, then poll on durable timers with
 * backoff (the projection shows `processing` and the provider's estimate) until it completes and is
 * stored. A failure, a refusal or the overall timeout marks it failed and refunds its tokens once. A
 * cancel stops the provider's job first, then fails and refunds it with reason `cancelled`.
 */
export async function videoGenerationWorkflow(generation: VideoWorkflowInput): Promise<{ state: 'completed' | 'failed'; reason?: string }> {
  try {
    const { timeoutSeconds } = await provider.submitVideo(generation);
    const deadline = Date.now() + timeoutSeconds * 1000;
    for (let delay = FIRST_POLL_MS; ; delay = Math.min(MAX_POLL_MS, Math.round(delay * 1.5))) {
      await sleep(Math.min(delay, Math.max(0, deadline - Date.now())));
      const status = await provider.pollVideo(generation);
      if (status.state === 'completed') {
        await announce(generation.orgId, status.eventId);
        return { state: 'completed' };
      }
      if (status.state === 'failed') throw ApplicationFailure.nonRetryable(status.reason, 'VideoGenerationFailed');
      if (Date.now() >= deadline) {
        throw ApplicationFailure.nonRetryable(`the provider did not finish within ${timeoutSeconds} seconds`, 'VideoGenerationTimedOut');
      }
    }
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
