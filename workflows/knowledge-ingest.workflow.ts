import { proxyActivities } from '@temporalio/workflow';
import {
  EMBEDDING_BATCH_PARALLELISM,
  NON_RETRYABLE_EMBEDDING_ERRORS,
  type IngestDocumentInput,
  type IngestionOutcome,
  type KnowledgeIngestionActivities,
} from '@pylon/contracts';
import { announce } from './announce';
import { describeFailure } from './failure-reason';

/** Chunking and publishing are database work: retry until the database is back, within reason. */
const store = proxyActivities<KnowledgeIngestionActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 10 },
});

/** Embedding calls: backoff on rate limits and 5xx, no retry when the provider refuses or is not configured. */
const embedder = proxyActivities<KnowledgeIngestionActivities>({
  startToCloseTimeout: '2 minutes',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 8,
    nonRetryableErrorTypes: [...NON_RETRYABLE_EMBEDDING_ERRORS],
  },
});

/**
 * Knowledge ingestion: chunk the document into drafts, embed them in batches, then publish every
 * chunk and mark the document ready in one transaction. Any failure marks it failed with the reason;
 * drafts are never searchable, so nothing half-written is ever found.
 */
export async function knowledgeIngestWorkflow(document: IngestDocumentInput): Promise<IngestionOutcome> {
  try {
    const plan = await store.prepareChunks(document);
    if (!plan.exists) return { status: 'deleted' };

    for (let first = 0; first < plan.batchCount; first += EMBEDDING_BATCH_PARALLELISM) {
      const batches = Array.from({ length: Math.min(EMBEDDING_BATCH_PARALLELISM, plan.batchCount - first) }, (_, i) => first + i);
      await Promise.all(batches.map((batchIndex) => embedder.embedChunkBatch({ ...document, batchIndex })));
    }

    const { published, chunkCount, eventId } = await store.publishDocument(document);
    await announce(document.orgId, eventId);
    return published ? { status: 'ready', chunkCount } : { status: 'deleted' };
  } catch (failure) {
    const reason = describeFailure(failure);
    await announce(document.orgId, await store.markDocumentFailed({ ...document, reason }));
    return { status: 'failed', reason };
  }
}
