import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import {
  EMBEDDING_BATCH_PARALLELISM,
  EXTRACTION_FAILURE,
  NON_RETRYABLE_EMBEDDING_ERRORS,
  laneTaskQueue,
  type IngestDocumentInput,
  type IngestionOutcome,
  type KnowledgeIngestionActivities,
  type PublishOutcome,
} from '@pylon/contracts';
import { announce } from './announce';
import { describeFailure } from './failure-reason';

/**
 * Every step heartbeats (every 2 s), so a worker that dies mid-step is noticed within the heartbeat
 * timeout and the step retried on another, instead of after the whole start-to-close timeout.
 */
const HEARTBEAT_TIMEOUT = '10 seconds';

/** Chunking and publishing are database work: retry until the database is back, within reason. */
const store = proxyActivities<KnowledgeIngestionActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 10 },
});

/** Embedding calls: backoff on rate limits and 5xx, no retry when the provider refuses or is not configured. */
const embedder = proxyActivities<KnowledgeIngestionActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 8,
    nonRetryableErrorTypes: [...NON_RETRYABLE_EMBEDDING_ERRORS],
  },
});

/**
 * Reading a file is CPU work in a thread of its own, on the knowledge extraction lane, bounded by the
 * file limits: a damaged or hostile file fails at once (its reason is the document's), anything else is
 * retried a few times. The lane has one slot per extraction thread, so a file waits for one in
 * Temporal's queue, where organisations take turns.
 */
function extractor(): KnowledgeIngestionActivities {
  return proxyActivities<KnowledgeIngestionActivities>({
    taskQueue: laneTaskQueue(workflowInfo().taskQueue, 'extraction'),
    startToCloseTimeout: '15 minutes',
    heartbeatTimeout: '30 seconds',
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumAttempts: 3, nonRetryableErrorTypes: [EXTRACTION_FAILURE] },
  });
}

/**
 * Knowledge ingestion. An uploaded file's text is extracted first. A document that fits the embedding batches that run at once — most do — is
 * chunked, embedded and published in one step. A larger one is chunked into drafts, embedded in batches (each retried on its
 * own), then published. Publishing makes every chunk searchable and the document ready in one
 * transaction; any failure marks it failed with the reason. Drafts are never searchable, so nothing
 * half-written is ever found. One workflow per revision (`document.revision`): its activities work on that
 * revision only, and once a later revision is accepted they do nothing (`superseded`).
 */
export async function knowledgeIngestWorkflow(document: IngestDocumentInput): Promise<IngestionOutcome> {
  try {
    if (document.fromFile) {
      const extraction = await extractor().extractDocumentText(document);
      if (!extraction.exists) return { status: 'deleted' };
    }

    const oneStep = await embedder.ingestInOneStep(document);
    if (oneStep.kind === 'deleted') return { status: 'deleted' };
    if (oneStep.kind === 'superseded') return { status: 'superseded' };
    if (oneStep.kind === 'published') return finish(document, oneStep);

    const plan = await store.prepareChunks(document);
    if (plan.superseded) return { status: 'superseded' };
    if (!plan.exists) return { status: 'deleted' };

    for (let first = 0; first < plan.batchCount; first += EMBEDDING_BATCH_PARALLELISM) {
      const batches = Array.from({ length: Math.min(EMBEDDING_BATCH_PARALLELISM, plan.batchCount - first) }, (_, i) => first + i);
      await Promise.all(batches.map((batchIndex) => embedder.embedChunkBatch({ ...document, batchIndex })));
    }

    return finish(document, await store.publishDocument(document));
  } catch (failure) {
    const reason = describeFailure(failure);
    await announce(document.orgId, await store.markDocumentFailed({ ...document, reason }));
    return { status: 'failed', reason };
  }
}

async function finish(document: IngestDocumentInput, { published, superseded, chunkCount, eventId }: PublishOutcome): Promise<IngestionOutcome> {
  await announce(document.orgId, eventId);
  if (superseded) return { status: 'superseded' };
  return published ? { status: 'ready', chunkCount } : { status: 'deleted' };
}
