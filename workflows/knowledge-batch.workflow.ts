import {
  CancellationScope,
  ChildWorkflowCancellationType,
  ParentClosePolicy,
  startChild,
  isCancellation,
  log,
  proxyActivities,
} from '@temporalio/workflow';
import { knowledgeIngestWorkflowId, pylonSearchAttributes, type IngestBatchInput, type KnowledgeBatchActivities } from '@pylon/contracts';
import { announce } from './announce';
import { knowledgeIngestWorkflow } from './knowledge-ingest.workflow';

/**
 * How many of a batch's documents are ingested at once. The rest wait in this workflow, holding no worker
 * slot, so one organisation's 500 files leave room for everyone else's documents.
 */
const DOCUMENTS_AT_ONCE = 4;

const store = proxyActivities<KnowledgeBatchActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 10 },
});

/**
 * A knowledge batch: every document goes through its own ingestion workflow (`kb-ingest:<doc_id>`,
 * visible and retried on its own), DOCUMENTS_AT_ONCE at a time, then the batch is completed. Cancelled,
 * it starts no more: the documents being ingested finish, the others end failed, and the batch cancelled.
 */
export async function knowledgeBatchWorkflow(batch: IngestBatchInput): Promise<{ status: 'completed' | 'cancelled' }> {
  // Read where a cancel cannot interrupt it: a batch cancelled before its first step still fails its documents.
  const documents = await CancellationScope.nonCancellable(() => store.batchDocuments(batch));
  let next = 0;
  const begun = new Set<string>();
  const ingestOneAfterAnother = async (): Promise<void> => {
    while (next < documents.length) {
      const document = documents[next++]!;
      try {
        const ingestion = await startChild(knowledgeIngestWorkflow, {
          workflowId: knowledgeIngestWorkflowId(document.docId),
          args: [document],
          // Found in the Temporal UI as every document's ingestion is (its priority, the batch's, is inherited).
          typedSearchAttributes: pylonSearchAttributes(batch.orgId, document.docId),
          staticSummary: `Knowledge ingestion of ${document.docId} (batch ${batch.batchId})`,
          // A document being ingested finishes even if the batch is cancelled meanwhile.
          cancellationType: ChildWorkflowCancellationType.ABANDON,
          parentClosePolicy: ParentClosePolicy.ABANDON,
        });
        begun.add(document.docId);
        await ingestion.result();
      } catch (failure) {
        if (isCancellation(failure)) throw failure;
        // The document's own workflow records why it failed; the batch goes on.
        log.warn('a document of the batch ended without an outcome', { docId: document.docId, failure: String(failure) });
      }
    }
  };

  let cancelled = false;
  try {
    await Promise.all(Array.from({ length: DOCUMENTS_AT_ONCE }, ingestOneAfterAnother));
  } catch (failure) {
    if (!isCancellation(failure)) throw failure;
    cancelled = true;
  }
  const notStarted = documents.filter((document) => !begun.has(document.docId)).map((document) => document.docId);
  await CancellationScope.nonCancellable(async () => {
    const eventIds = await store.finishBatch({ ...batch, cancelled, notStarted });
    for (const eventId of eventIds) await announce(batch.orgId, eventId);
  });
  return { status: cancelled ? 'cancelled' : 'completed' };
}
