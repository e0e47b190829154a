import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { PylonConfig } from '@pylon/config';
import type { SearchFilter, SearchMode } from '@pylon/contracts';
import { ChunkMatch, ChunkQueryMatch, KnowledgeChunkRepository } from './repositories/knowledge-chunk.repository';
import { KnowledgeDocumentRepository } from './repositories/knowledge-document.repository';
import { SearchPlan } from './repositories/knowledge-search.sql';
import { CachedQueryEmbedder } from '@pylon/embeddings';
import { planSearch, supportsIterativeScan } from './search-planner';
import { KnowledgeVectorIndexService } from './vector-index.service';

const SIZE_CACHE_MS = 5_000;
/** Candidates each leg of a query ranks before fusion: at least this many, and a few times what is asked. */
const MIN_LEG_DEPTH = 50;
const LEG_DEPTH_PER_MATCH = 4;
const EXACT: SearchPlan = { exact: true, efSearch: 0, iterativeScan: false };

export interface KnowledgeQuery {
  query: string;
  matchCount: number;
  mode: SearchMode;
  filter?: SearchFilter;
  scoreThreshold?: number;
  /** Only these knowledge bases of the organisation; absent: all of them. */
  knowledgeBaseIds?: readonly string[];
}
const SIZE_CACHE_ENTRIES = 10_000;

/**
 * Knowledge search: embeds the query (cached), picks the plan for the organisation's size, and runs
 * the one pgvector statement (knowledge-search.sql.ts). Refuses to start when the embedder's dimension does not match the column.
 */
@Injectable()
export class KnowledgeSearchService implements OnModuleInit {
  private readonly logger = new Logger(KnowledgeSearchService.name);
  private iterativeScanAvailable = false;
  private readonly orgSizes = new Map<string, { chunks: number; at: number }>();

  constructor(
    private readonly queries: CachedQueryEmbedder,
    private readonly chunks: KnowledgeChunkRepository,
    private readonly documents: KnowledgeDocumentRepository,
    private readonly vectorIndexes: KnowledgeVectorIndexService,
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

  /** The seed search (`POST /knowledge/search`): the organisation's chunks nearest to the query, by cosine similarity. */
  async search(orgId: string, query: string, matchCount: number): Promise<ChunkMatch[]> {
    return this.run(orgId, { query, matchCount, mode: 'vector' }, matchCount);
  }

  /**
   * `POST /knowledge/query` and the agents' knowledge_search tool: vector, keyword or hybrid (both legs
   * fused by reciprocal rank fusion), filtered on the documents' title and metadata. The keyword leg
   * needs no embedding, so a keyword query works while the embedding provider is down.
   */
  async query(orgId: string, request: KnowledgeQuery): Promise<ChunkQueryMatch[]> {
    return this.run(orgId, request, Math.max(MIN_LEG_DEPTH, LEG_DEPTH_PER_MATCH * request.matchCount));
  }

  /** Both searches: embed (cached), plan for the organisation's size, run the one statement. */
  private async run(orgId: string, request: KnowledgeQuery, legDepth: number): Promise<ChunkQueryMatch[]> {
    const needsEmbedding = request.mode !== 'keyword';
    const bases = request.knowledgeBaseIds;
    const [embedding, orgChunks, scopeChunks] = await Promise.all([
      needsEmbedding ? this.queries.embedQuery(request.query) : undefined,
      this.orgChunkCount(orgId),
      bases ? (bases.length > 0 ? this.documents.readyChunkCountIn(orgId, bases) : 0) : undefined,
    ]);
    if (orgChunks === 0 || scopeChunks === 0) return [];
    const query = {
      mode: request.mode,
      embedding,
      text: request.query,
      limit: request.matchCount,
      legDepth,
      plan: await this.plan(orgId, orgChunks, legDepth),
      filter: request.filter,
      scoreThreshold: request.scoreThreshold,
      knowledgeBaseIds: bases,
    };
    const { matches, vectorCandidates } = await this.chunks.query(orgId, query);
    const indexedVectorLeg = needsEmbedding && !query.plan.exact && !query.filter;
    // An approximate index can come back short: answer exactly rather than short. A leg scoped to some
    // bases can find only their chunks (counted from the documents, so as exact as the org's count).
    if (indexedVectorLeg && vectorCandidates < Math.min(legDepth, scopeChunks ?? orgChunks)) {
      this.logger.debug(`HNSW returned ${vectorCandidates} of ${legDepth} candidates for org ${orgId}; searching exactly`);
      return (await this.chunks.query(orgId, { ...query, plan: EXACT })).matches;
    }
    return matches;
  }

  /** Only a large organisation's search asks whether its own index is ready. */
  private async plan(orgId: string, orgChunks: number, k: number): Promise<SearchPlan> {
    const exactMaxChunks = this.config.kbExactSearchMaxChunks;
    return planSearch({
      orgChunks,
      k,
      exactMaxChunks,
      ownIndexReady: orgChunks > exactMaxChunks && (await this.vectorIndexes.isReady(orgId, orgChunks)),
      iterativeScanAvailable: this.iterativeScanAvailable,
    });
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
}
