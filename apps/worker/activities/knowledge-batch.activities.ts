import { Injectable } from '@nestjs/common';
import type { IngestBatchInput, IngestDocumentInput, KnowledgeBatchActivities } from '@pylon/contracts';
import { KnowledgeBatchesService } from '@pylon/knowledge';

/** The batch workflow's activities: one call each into KnowledgeBatchesService. */
@Injectable()
export class KnowledgeBatchActivitiesImpl implements KnowledgeBatchActivities {
  constructor(private readonly batches: KnowledgeBatchesService) {}

  batchDocuments({ orgId, batchId }: IngestBatchInput): Promise<IngestDocumentInput[]> {
    return this.batches.ingestionInputs(orgId, batchId);
  }

  finishBatch({ orgId, batchId, cancelled, notStarted }: IngestBatchInput & { cancelled: boolean; notStarted: string[] }): Promise<string[]> {
    return this.batches.finish(orgId, batchId, cancelled, notStarted);
  }
}
