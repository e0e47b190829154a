import { Injectable, Logger } from '@nestjs/common';
import { EMBEDDING_BATCH_PARALLELISM, type IngestionPlan, type OneStepIngestion, type PublishOutcome } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { KnowledgeChunkRepository, KnowledgeDocumentRepository, type DraftChunk, type KnowledgeDocument } from '@pylon/db';
import { EmbeddingProvider } from '@pylon/embeddings';
import { chunkText } from './chunking';
import { pageRange } from './extraction';
import { documentEvent } from './document-view';
import { KnowledgeVectorIndexService } from './vector-index.service';

/**
 * Knowledge ingestion's rules, for the ingestion workflow's activities. A document that fits the
 * embedding batches that run at once (EMBEDDING_BATCH_SIZE × EMBEDDING_BATCH_PARALLELISM chunks, 256 by
 * default: most do) is chunked, embedded and published in one step, in memory, so a retry re-embeds at
 * most that much; a larger one is
 * chunked into drafts, embedded batch by batch (each batch retried on its own), then published. Either
 * way the chunks become searchable and the document ready in one transaction.
 */
@Injectable()
export class KnowledgeIngestionService {
  private readonly logger = new Logger(KnowledgeIngestionService.name);

  constructor(
    private readonly documents: KnowledgeDocumentRepository,
    private readonly chunks: KnowledgeChunkRepository,
    private readonly embedder: EmbeddingProvider,
    private readonly vectorIndexes: KnowledgeVectorIndexService,
    private readonly config: PylonConfig,
  ) {}

  async ingestInOneStep(orgId: string, docId: string, signal?: AbortSignal): Promise<OneStepIngestion> {
    const document = await this.documents.findById(orgId, docId);
    if (!document) return { kind: 'deleted' };
    const chunks = this.chunk(document);
    const size = this.config.embeddingBatchSize;
    if (chunks.length > size * EMBEDDING_BATCH_PARALLELISM) return { kind: 'batched' };
    const batches = Array.from({ length: Math.ceil(chunks.length / size) }, (_, i) => chunks.slice(i * size, (i + 1) * size));
    const vectors = (
      await Promise.all(
        batches.map((batch) =>
          this.embedder.embed(
            batch.map((chunk) => chunk.content),
            signal,
          ),
        ),
      )
    ).flat();
    const embedded = chunks.map((chunk, i) => ({
      index: chunk.index,
      content: chunk.content,
      start: chunk.start,
      end: chunk.end,
      pageStart: chunk.pageStart,
      pageEnd: chunk.pageEnd,
      embedding: vectors[i]!,
    }));
    const outcome = await this.documents.publishChunks(orgId, docId, embedded, documentEvent);
    await this.afterPublish(orgId, outcome);
    return { kind: 'published', ...outcome };
  }

  /** Chunks the document into unpublished drafts, replacing any drafts of an earlier attempt. */
  async prepareChunks(orgId: string, docId: string): Promise<IngestionPlan> {
    const document = await this.documents.findById(orgId, docId);
    if (!document) return { exists: false, chunkCount: 0, batchCount: 0 };
    const chunks = this.chunk(document);
    await this.chunks.replaceDrafts(orgId, docId, chunks);
    return { exists: true, chunkCount: chunks.length, batchCount: Math.ceil(chunks.length / this.config.embeddingBatchSize) };
  }

  async embedChunkBatch(orgId: string, docId: string, batchIndex: number, signal?: AbortSignal): Promise<void> {
    const size = this.config.embeddingBatchSize;
    const drafts = await this.chunks.draftBatch(orgId, docId, batchIndex * size, size);
    if (drafts.length === 0) return;
    const vectors = await this.embedder.embed(
      drafts.map((draft) => draft.content),
      signal,
    );
    await this.chunks.saveDraftEmbeddings(
      orgId,
      docId,
      drafts.map((draft, i) => ({ index: draft.index, embedding: vectors[i]! })),
    );
  }

  async publish(orgId: string, docId: string): Promise<PublishOutcome> {
    const outcome = await this.documents.publish(orgId, docId, documentEvent);
    await this.afterPublish(orgId, outcome);
    return outcome;
  }

  /**
   * An organisation that has just grown past the exact-search threshold gets its vector index built in
   * the background. Never fails the publish (its event must still be announced): a search of the
   * organisation asks again (KnowledgeSearchService).
   */
  private async afterPublish(orgId: string, outcome: PublishOutcome): Promise<void> {
    if (!outcome.published) return;
    try {
      await this.vectorIndexes.requestIfLarge(orgId, await this.documents.readyChunkCount(orgId));
    } catch (error) {
      this.logger.warn({ err: error }, `could not request the vector index of organisation ${orgId}; its next search will`);
    }
  }

  markFailed(orgId: string, docId: string, reason: string): Promise<string | null> {
    return this.documents.markFailed(orgId, docId, reason, documentEvent);
  }

  /** The document's chunks, each with the pages it spans when the document has pages. */
  private chunk({ content, pageStarts }: Pick<KnowledgeDocument, 'content' | 'pageStarts'>): DraftChunk[] {
    return chunkText(content, { targetSize: this.config.kbChunkSize, overlap: this.config.kbChunkOverlap }).map((chunk) => {
      const pages = pageStarts ? pageRange(chunk.start, chunk.end, pageStarts) : null;
      return { ...chunk, pageStart: pages?.pageStart ?? null, pageEnd: pages?.pageEnd ?? null };
    });
  }
}
