import { proxyActivities } from '@temporalio/workflow';
import type { KnowledgeVectorIndexActivities, VectorIndexOutcome } from '@pylon/contracts';
import { describeFailure } from './failure-reason';

/** An index of a few hundred thousand chunks takes minutes; the heartbeat tells a dead worker from a long build. */
const builder = proxyActivities<KnowledgeVectorIndexActivities>({
  startToCloseTimeout: '4 hours',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes', maximumAttempts: 5 },
});

const recorder = proxyActivities<KnowledgeVectorIndexActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 10 },
});

/**
 * A large organisation's own vector index, built in the background: concurrently, so its searches and
 * writes go on, and its searches stay exact until the index is ready. A build that keeps failing is
 * recorded as failed, with the reason, and the organisation is searched exactly.
 */
export async function knowledgeVectorIndexWorkflow({ orgId }: { orgId: string }): Promise<VectorIndexOutcome | { status: 'failed'; reason: string }> {
  try {
    return await builder.buildVectorIndex({ orgId });
  } catch (failure) {
    const reason = describeFailure(failure);
    await recorder.markVectorIndexFailed({ orgId, reason });
    return { status: 'failed', reason };
  }
}
