import { Injectable, Logger } from '@nestjs/common';
import { EMBEDDING_BATCH_PARALLELISM, type IngestionPlan, type OneStepIngestion, type PublishOutcome } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { KnowledgeChunkRepository, type DraftChunk } from './repositories/knowledge-chunk.repository';
import { KnowledgeDocumentRepository, type PublishedChunks } from './repositories/knowledge-document.repository';
import type { KnowledgeDocument } from '@pylon/db';
import { EmbeddingProvider } from '@pylon/embeddings';
import { chunkText } from './chunking';
import { pageRange } from './extraction';
import { documentEvent } from './document-view';
import { isSuperseded, revisionStanding } from './revision';
import { KnowledgeVectorIndexService } from './vector-index.service';

/**
 * Knowledge ingestion's rules, for the ingestion workflow's activities. A document that fits the
 * embedding batches that run at once (EMBEDDING_BATCH_SIZE × EMBEDDING_BATCH_PARALLELISM chunks, 256 by
 * default: most do) is chunked, embedded and published in one step, in memory, so a retry re-embeds at
 * most that much; a larger one is
 * chunked into drafts, embedded batch by batch (each batch retried on its own), then published. Either
 * way the chunks become searchable and the document ready in one transaction.
 *
 * Every step works on one revision of the document (see revision.ts), reads the document once and hands
 * what it read on to the write that ends it.
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
    // Published or failed by an earlier attempt: nothing to embed.
    if (document.status !== 'processing') return { kind: 'published', ...(await this.notPublished(orgId, document, revision)) };
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
    return {
      kind: 'published',
      ...(await this.outcome(orgId, docId, revision, await this.documents.publishChunks(orgId, document, embedded, documentEvent))),
    };
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

  /** Swaps the revision's chunks in, in one transaction, if it is still the document's processing revision (see KnowledgeDocumentRepository.publishDrafts). */
  async publish(orgId: string, docId: string, revision: number): Promise<PublishOutcome> {
    const document = await this.documents.findById(orgId, docId);
    if (!document || isSuperseded(document, revision) || document.status !== 'processing') return this.notPublished(orgId, document, revision);
    return this.outcome(orgId, docId, revision, await this.documents.publishDrafts(orgId, document, documentEvent));
  }

  /** What publishing came to; when it changed nothing (a later revision, a failure or a deletion came first), why. */
  private async outcome(orgId: string, docId: string, revision: number, published: PublishedChunks | null): Promise<PublishOutcome> {
    if (!published) return this.notPublished(orgId, await this.documents.findById(orgId, docId), revision);
    await this.afterPublish(orgId);
    return { published: true, ...published };
  }

  /** A revision that is not to be published: deleted, superseded (no event), or final already (its event, if never announced). */
  private async notPublished(orgId: string, document: KnowledgeDocument | null, revision: number): Promise<PublishOutcome> {
    if (!document) return { published: false, chunkCount: 0, eventId: null };
    if (isSuperseded(document, revision)) return { published: false, superseded: true, chunkCount: 0, eventId: null };
    return { published: false, chunkCount: 0, eventId: await this.documents.unannouncedEvent(orgId, document.id) };
  }

  /**
   * An organisation that has just grown past the exact-search threshold gets its vector index built in
   * the background. Never fails the publish (its event must still be announced): a search of the
   * organisation asks again (KnowledgeSearchService).
   */
  private async afterPublish(orgId: string): Promise<void> {
    try {
      await this.vectorIndexes.requestIfLarge(orgId, await this.documents.readyChunkCount(orgId));
    } catch (error) {
      this.logger.warn({ err: error }, `could not request the vector index of organisation ${orgId}; its next search will`);
    }
  }

  /**
   * The revision failed: the document says so, and keeps serving its ready revision's chunks. A revision
   * that is not the latest has no event of its own; a final one, the event an earlier attempt left unannounced.
   */
  async markFailed(orgId: string, docId: string, revision: number, reason: string): Promise<string | null> {
    const failed = await this.documents.markFailed(orgId, docId, revision, reason, documentEvent);
    if (failed) return failed.eventId;
    const document = await this.documents.findById(orgId, docId);
    if (!document || revisionStanding(document, revision) !== 'latest') return null;
    return this.documents.unannouncedEvent(orgId, docId);
  }

  /** The document's chunks, each with the pages it spans when the document has pages. */
  private chunk({ content, pageStarts }: Pick<KnowledgeDocument, 'content' | 'pageStarts'>): DraftChunk[] {
    return chunkText(content, { targetSize: this.config.kbChunkSize, overlap: this.config.kbChunkOverlap }).map((chunk) => {
      const pages = pageStarts ? pageRange(chunk.start, chunk.end, pageStarts) : null;
      return { ...chunk, pageStart: pages?.pageStart ?? null, pageEnd: pages?.pageEnd ?? null };
    });
  }
}
