import { Injectable } from '@nestjs/common';
import { Context } from '@temporalio/activity';
import {
  type ExtractionStep,
  type IngestDocumentInput,
  type IngestionPlan,
  type KnowledgeIngestionActivities,
  type OneStepIngestion,
  type PublishOutcome,
} from '@pylon/contracts';
import { KnowledgeExtractionService, KnowledgeIngestionService } from '@pylon/knowledge';
import { heartbeating } from './heartbeating';

/** Each step heartbeats this often, so a worker that dies mid-way is noticed within the workflow's heartbeat timeout. */
const HEARTBEAT_MS = 2_000;

/** The ingestion workflow's activities: one call each into KnowledgeIngestionService, heartbeating. */
@Injectable()
export class KnowledgeIngestionActivitiesImpl implements KnowledgeIngestionActivities {
  constructor(
    private readonly ingestion: KnowledgeIngestionService,
    private readonly extraction: KnowledgeExtractionService,
  ) {}

  extractDocumentText({ orgId, docId, revision = 1 }: IngestDocumentInput): Promise<ExtractionStep> {
    const reportProgress = (done: number, total: number) => Context.current().heartbeat({ done, total });
    return heartbeating(HEARTBEAT_MS, (signal) => this.extraction.extractText(orgId, docId, revision, reportProgress, signal));
  }

  ingestInOneStep({ orgId, docId, revision = 1 }: IngestDocumentInput): Promise<OneStepIngestion> {
    return heartbeating(HEARTBEAT_MS, (signal) => this.ingestion.ingestInOneStep(orgId, docId, revision, signal));
  }

  prepareChunks({ orgId, docId, revision = 1 }: IngestDocumentInput): Promise<IngestionPlan> {
    return heartbeating(HEARTBEAT_MS, () => this.ingestion.prepareChunks(orgId, docId, revision));
  }

  embedChunkBatch({ orgId, docId, revision = 1, batchIndex }: IngestDocumentInput & { batchIndex: number }): Promise<void> {
    return heartbeating(HEARTBEAT_MS, (signal) => this.ingestion.embedChunkBatch(orgId, docId, revision, batchIndex, signal));
  }

  publishDocument({ orgId, docId, revision = 1 }: IngestDocumentInput): Promise<PublishOutcome> {
    return heartbeating(HEARTBEAT_MS, () => this.ingestion.publish(orgId, docId, revision));
  }

  markDocumentFailed({ orgId, docId, revision = 1, reason }: IngestDocumentInput & { reason: string }): Promise<string | null> {
    return this.ingestion.markFailed(orgId, docId, revision, reason);
  }
}
