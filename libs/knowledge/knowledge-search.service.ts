import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { PylonConfig } from '@pylon/config';
import { ChunkMatch, KnowledgeChunkRepository, KnowledgeDocumentRepository } from '@pylon/db';
import { CachedQueryEmbedder } from '@pylon/embeddings';
import { planSearch, supportsIterativeScan } from './search-planner';

const SIZE_CACHE_MS = 5_000;
const SIZE_CACHE_ENTRIES = 10_000;

/**
 * Knowledge search: embeds the query (cached), picks the plan for the organisation's size, and runs
 * the one pgvector query. Refuses to start when the embedder's dimension does not match the column.
 */
@Injectable()
export class KnowledgeSearchService implements OnModuleInit {
  private readonly logger = new Logger(KnowledgeSearchService.name);
  private iterativeScanAvailable = false;
  private readonly orgSizes = new Map<string, { chunks: number; at: number }>();
  private total = { chunks: 0, at: 0 };

  constructor(
    private readonly queries: CachedQueryEmbedder,
    private readonly chunks: KnowledgeChunkRepository,
    private readonly documents: KnowledgeDocumentRepository,
    private readonly config: PylonConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    const column = await this.chunks.embeddingColumnDimensions();
    if (column !== undefined && column !== this.queries.dimensions) {
      throw new Error(
        `The embedding provider ${this.queries.id} makes ${this.queries.dimensions}-dimensional vectors but ` +
          `knowledge_chunks.embedding holds ${column}: set EMBEDDING_DIMENSIONS=${column} (or migrate a new column)`,
      );
    }
    const version = await this.chunks.vectorExtensionVersion();
    this.iterativeScanAvailable = supportsIterativeScan(version);
    this.logger.log(`pgvector ${version ?? 'missing'}; iterative index scans ${this.iterativeScanAvailable ? 'on' : 'unavailable'}`);
  }

  async search(orgId: string, query: string, matchCount: number): Promise<ChunkMatch[]> {
    const [embedding, orgChunks, totalChunks] = await Promise.all([
      this.queries.embedQuery(query),
      this.orgChunkCount(orgId),
      this.totalChunkCount(),
    ]);
    if (orgChunks === 0) return [];
    const plan = planSearch({
      orgChunks,
      totalChunks,
      k: matchCount,
      exactMaxChunks: this.config.kbExactSearchMaxChunks,
      iterativeScanAvailable: this.iterativeScanAvailable,
    });
    const matches = await this.chunks.search(orgId, embedding, matchCount, plan);
    // The index can come back short when the nearest candidates are mostly other organisations'
    // (pgvector < 0.8 has no iterative scan to keep going): answer exactly rather than short.
    if (!plan.exact && matches.length < Math.min(matchCount, orgChunks)) {
      this.logger.debug(`HNSW returned ${matches.length} of ${matchCount} for org ${orgId}; searching exactly`);
      return this.chunks.search(orgId, embedding, matchCount, { exact: true, efSearch: 0, iterativeScan: false });
    }
    return matches;
  }

  /** Cached briefly: a document published a moment ago may be planned as slightly smaller, never missed. */
  private async orgChunkCount(orgId: string): Promise<number> {
    const cached = this.orgSizes.get(orgId);
    if (cached && Date.now() - cached.at < SIZE_CACHE_MS && cached.chunks > 0) return cached.chunks;
    const chunks = await this.documents.readyChunkCount(orgId);
    if (this.orgSizes.size >= SIZE_CACHE_ENTRIES) this.orgSizes.clear();
    this.orgSizes.set(orgId, { chunks, at: Date.now() });
    return chunks;
  }

  private async totalChunkCount(): Promise<number> {
    if (Date.now() - this.total.at < SIZE_CACHE_MS * 6) return this.total.chunks;
    this.total = { chunks: await this.chunks.estimatedTotalChunks(), at: Date.now() };
    return this.total.chunks;
  }
}
