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
 *
 * Every step works on one revision of the document. Once a later revision is accepted the step does
 * nothing (`superseded`); a revision not accepted yet (its workflow is started before the API writes it,
 * see KnowledgeDocumentsService.replace) fails the step, retryably, until it is.
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

  async ingestInOneStep(orgId: string, docId: string, revision: number, signal?: AbortSignal): Promise<OneStepIngestion> {
    const document = await this.documents.findById(orgId, docId);
    if (!document) return { kind: 'deleted' };
    if (isSuperseded(document, revision)) return { kind: 'superseded' };
    if (document.status !== 'processing') {
      // Published or failed by an earlier attempt: nothing to embed; publishing says so (and finds its event if unannounced).
      return { kind: 'published', ...(await this.documents.publishChunks(orgId, docId, revision, [], documentEvent)) };
    }
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
    const outcome = await this.documents.publishChunks(orgId, docId, revision, embedded, documentEvent);
    await this.afterPublish(orgId, outcome);
    return { kind: 'published', ...outcome };
  }

  /** Chunks the revision into unpublished drafts, replacing any drafts of an earlier attempt. */
  async prepareChunks(orgId: string, docId: string, revision: number): Promise<IngestionPlan> {
    const document = await this.documents.findById(orgId, docId);
    if (!document) return { exists: false, chunkCount: 0, batchCount: 0 };
    if (isSuperseded(document, revision)) return { exists: true, superseded: true, chunkCount: 0, batchCount: 0 };
    if (document.status !== 'processing') return { exists: true, chunkCount: 0, batchCount: 0 };
    const chunks = this.chunk(document);
    await this.chunks.replaceDrafts(orgId, docId, revision, chunks);
    return { exists: true, chunkCount: chunks.length, batchCount: Math.ceil(chunks.length / this.config.embeddingBatchSize) };
  }

  /** Embeds one batch of the revision's drafts; none left (a later revision was accepted and dropped them) is nothing to do. */
  async embedChunkBatch(orgId: string, docId: string, revision: number, batchIndex: number, signal?: AbortSignal): Promise<void> {
    const size = this.config.embeddingBatchSize;
    const drafts = await this.chunks.draftBatch(orgId, docId, revision, batchIndex * size, size);
    if (drafts.length === 0) return;
    const vectors = await this.embedder.embed(
      drafts.map((draft) => draft.content),
      signal,
    );
    await this.chunks.saveDraftEmbeddings(
      orgId,
      docId,
      revision,
      drafts.map((draft, i) => ({ index: draft.index, embedding: vectors[i]! })),
    );
  }

  /** Swaps the revision's chunks in, in one transaction, if it is still the document's latest (see KnowledgeDocumentRepository.publish). */
  async publish(orgId: string, docId: string, revision: number): Promise<PublishOutcome> {
    const outcome = await this.documents.publish(orgId, docId, revision, documentEvent);
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

  /** The revision failed: the document says so, and keeps serving its ready revision's chunks. A superseded revision changes nothing. */
  markFailed(orgId: string, docId: string, revision: number, reason: string): Promise<string | null> {
    return this.documents.markFailed(orgId, docId, revision, reason, documentEvent);
  }

  /** The document's chunks, each with the pages it spans when the document has pages. */
  private chunk({ content, pageStarts }: Pick<KnowledgeDocument, 'content' | 'pageStarts'>): DraftChunk[] {
    return chunkText(content, { targetSize: this.config.kbChunkSize, overlap: this.config.kbChunkOverlap }).map((chunk) => {
      const pages = pageStarts ? pageRange(chunk.start, chunk.end, pageStarts) : null;
      return { ...chunk, pageStart: pages?.pageStart ?? null, pageEnd: pages?.pageEnd ?? null };
    });
  }
}

/** Whether a later revision than `revision` was accepted; throws (retryably) while `revision` is not accepted yet. */
function isSuperseded(document: KnowledgeDocument, revision: number): boolean {
  if (document.revision < revision) {
    throw new Error(`revision ${revision} of document ${document.id} is not accepted yet (it is at ${document.revision})`);
  }
  return document.revision > revision;
}
