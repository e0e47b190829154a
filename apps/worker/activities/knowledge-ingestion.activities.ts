import { Injectable } from '@nestjs/common';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { IngestDocumentInput, IngestionPlan, KnowledgeIngestionActivities, OneStepIngestion, PublishOutcome } from '@pylon/contracts';
import { EmbeddingRejectedError, EmbeddingUnavailableError } from '@pylon/embeddings';
import { KnowledgeIngestionService } from '@pylon/knowledge';

/** The ingestion workflow's activities: one call each into KnowledgeIngestionService. */
@Injectable()
export class KnowledgeIngestionActivitiesImpl implements KnowledgeIngestionActivities {
  constructor(private readonly ingestion: KnowledgeIngestionService) {}

  ingestInOneStep({ orgId, docId }: IngestDocumentInput): Promise<OneStepIngestion> {
    return embedding(() => this.ingestion.ingestInOneStep(orgId, docId, Context.current().cancellationSignal));
  }

  prepareChunks({ orgId, docId }: IngestDocumentInput): Promise<IngestionPlan> {
    return this.ingestion.prepareChunks(orgId, docId);
  }

  embedChunkBatch({ docId, batchIndex }: IngestDocumentInput & { batchIndex: number }): Promise<void> {
    return embedding(() => this.ingestion.embedChunkBatch(docId, batchIndex, Context.current().cancellationSignal));
  }

  publishDocument({ orgId, docId }: IngestDocumentInput): Promise<PublishOutcome> {
    return this.ingestion.publish(orgId, docId);
  }

  markDocumentFailed({ orgId, docId, reason }: IngestDocumentInput & { reason: string }): Promise<string | null> {
    return this.ingestion.markFailed(orgId, docId, reason);
  }
}

/** An embedding provider that refuses or is not configured fails the activity without retries. */
async function embedding<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof EmbeddingUnavailableError) throw ApplicationFailure.nonRetryable(error.message, 'EmbeddingUnavailable');
    if (error instanceof EmbeddingRejectedError) throw ApplicationFailure.nonRetryable(error.message, 'EmbeddingRejected');
    throw error;
  }
}
