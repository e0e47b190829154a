import { Injectable } from '@nestjs/common';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { IngestDocumentInput, IngestionPlan, KnowledgeIngestionActivities } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { KnowledgeChunkRepository, KnowledgeDocumentRepository } from '@pylon/db';
import { EmbeddingProvider, EmbeddingRejectedError, EmbeddingUnavailableError } from '@pylon/embeddings';
import { chunkText, documentEvent } from '@pylon/knowledge';

/** Thin adapters between the ingestion workflow and the chunker, the embedder and the knowledge store. */
@Injectable()
export class KnowledgeIngestionActivitiesImpl implements KnowledgeIngestionActivities {
  constructor(
    private readonly documents: KnowledgeDocumentRepository,
    private readonly chunks: KnowledgeChunkRepository,
    private readonly embedder: EmbeddingProvider,
    private readonly config: PylonConfig,
  ) {}

  async prepareChunks({ orgId, docId }: IngestDocumentInput): Promise<IngestionPlan> {
    const document = await this.documents.findById(orgId, docId);
    if (!document) return { exists: false, chunkCount: 0, batchCount: 0 };
    const chunks = chunkText(document.content, { targetSize: this.config.kbChunkSize, overlap: this.config.kbChunkOverlap });
    await this.chunks.replaceDrafts(docId, chunks);
    return { exists: true, chunkCount: chunks.length, batchCount: Math.ceil(chunks.length / this.config.embeddingBatchSize) };
  }

  async embedChunkBatch({ docId, batchIndex }: IngestDocumentInput & { batchIndex: number }): Promise<void> {
    const size = this.config.embeddingBatchSize;
    const drafts = await this.chunks.draftBatch(docId, batchIndex * size, size);
    if (drafts.length === 0) return;
    let vectors: number[][];
    try {
      vectors = await this.embedder.embed(drafts.map((draft) => draft.content), Context.current().cancellationSignal);
    } catch (error) {
      if (error instanceof EmbeddingUnavailableError) throw ApplicationFailure.nonRetryable(error.message, 'EmbeddingUnavailable');
      if (error instanceof EmbeddingRejectedError) throw ApplicationFailure.nonRetryable(error.message, 'EmbeddingRejected');
      throw error;
    }
    await this.chunks.saveDraftEmbeddings(docId, drafts.map((draft, i) => ({ index: draft.index, embedding: vectors[i]! })));
  }

  publishDocument({ orgId, docId }: IngestDocumentInput): Promise<{ published: boolean; chunkCount: number; eventId: string | null }> {
    return this.documents.publish(orgId, docId, documentEvent);
  }

  markDocumentFailed({ orgId, docId, reason }: IngestDocumentInput & { reason: string }): Promise<string | null> {
    return this.documents.markFailed(orgId, docId, reason, documentEvent);
  }
}
