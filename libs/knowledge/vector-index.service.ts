import { Injectable, Logger } from '@nestjs/common';
import { PylonConfig } from '@pylon/config';
import { WORKFLOW_TYPES, knowledgeVectorIndexWorkflowId, type VectorIndexOutcome } from '@pylon/contracts';
import { KnowledgeDocumentRepository } from './repositories/knowledge-document.repository';
import { KnowledgeVectorIndexRepository, type VectorIndexRecord } from './repositories/knowledge-vector-index.repository';
import { WorkflowStarter } from '@pylon/temporal';
import { planSearch } from './search-planner';

/** pgvector's defaults, as the shared index had them. */
const HNSW_M = 16;
const HNSW_EF_CONSTRUCTION = 64;
/** A ready index stays ready; one not ready yet is asked about again soon. */
const READY_CACHE_MS = 60_000;
const NOT_READY_CACHE_MS = 1_000;
const READY_CACHE_ENTRIES = 10_000;
/** A build that failed (after its own retries) is tried again, from scratch, this long after. */
export const FAILED_BUILD_RETRY_MS = 10 * 60_000;

/** How an organisation's knowledge is searched now, for operators. */
export interface VectorSearchState {
  /** Chunks of its ready documents. */
  chunks: number;
  exactSearchMaxChunks: number;
  /** `exact` until the organisation is past the threshold and its own index is ready. */
  searchedBy: 'exact' | 'own_index';
  index: VectorIndexRecord | null;
}

/**
 * The rules of each large organisation's own vector index: an organisation that grows past
 * KB_EXACT_SEARCH_MAX_CHUNKS gets an HNSW index of its own chunks, built in the background by workflow
 * `kb-vector-index:<org_id>` (never on a request's path), without blocking its searches or writes; its
 * searches stay exact until the index is ready.
 */
@Injectable()
export class KnowledgeVectorIndexService {
  private readonly logger = new Logger(KnowledgeVectorIndexService.name);
  private readonly readiness = new Map<string, { ready: boolean; at: number }>();

  constructor(
    private readonly indexes: KnowledgeVectorIndexRepository,
    private readonly documents: KnowledgeDocumentRepository,
    private readonly workflows: WorkflowStarter,
    private readonly config: PylonConfig,
  ) {}

  /**
   * After the organisation's chunks grew: starts its index's build if it is now large and has none, or
   * its last build failed more than FAILED_BUILD_RETRY_MS ago.
   */
  async requestIfLarge(orgId: string, orgChunks: number, now = Date.now()): Promise<void> {
    if (orgChunks <= this.config.kbExactSearchMaxChunks) return;
    if (needsBuild(await this.indexes.find(orgId), now)) await this.startBuild(orgId, orgChunks);
  }

  private async startBuild(orgId: string, orgChunks: number): Promise<void> {
    this.logger.log(`organisation ${orgId} has ${orgChunks} chunks: building its vector index`);
    await this.workflows.start({
      workflowType: WORKFLOW_TYPES.knowledgeVectorIndex,
      workflowId: knowledgeVectorIndexWorkflowId(orgId),
      args: [{ orgId }],
      orgId,
      resourceId: orgId,
      summary: `Vector index of organisation ${orgId} (${orgChunks} chunks)`,
      rerunWhenClosed: true,
    });
  }

  /** Builds the index (the workflow's activity). Searches go on exactly meanwhile; writes are not blocked. */
  async build(orgId: string): Promise<VectorIndexOutcome> {
    const chunks = await this.documents.readyChunkCount(orgId);
    if (chunks <= this.config.kbExactSearchMaxChunks) return { status: 'not-needed', chunks, buildMs: 0 };
    await this.indexes.markBuilding(orgId, chunks);
    const started = performance.now();
    await this.indexes.build(orgId, { m: HNSW_M, efConstruction: HNSW_EF_CONSTRUCTION });
    const buildMs = performance.now() - started;
    await this.indexes.markReady(orgId, buildMs);
    this.logger.log(`vector index of organisation ${orgId} ready: ${chunks} chunks in ${Math.round(buildMs)} ms`);
    return { status: 'ready', chunks, buildMs: Math.round(buildMs) };
  }

  async markFailed(orgId: string, reason: string): Promise<void> {
    await this.indexes.markFailed(orgId, reason);
  }

  /**
   * Whether a large organisation's own index is ready to search with (read at most a second ago while it is not).
   * One that has none yet (its build could not be requested at ingestion), or whose build failed long
   * enough ago, has its build requested here, in the background.
   */
  async isReady(orgId: string, orgChunks: number): Promise<boolean> {
    const cached = this.readiness.get(orgId);
    if (cached && Date.now() - cached.at < (cached.ready ? READY_CACHE_MS : NOT_READY_CACHE_MS)) return cached.ready;
    const record = await this.indexes.find(orgId);
    if (needsBuild(record, Date.now())) {
      this.startBuild(orgId, orgChunks).catch((error: unknown) =>
        this.logger.warn({ err: error }, `could not request the vector index of organisation ${orgId}; it is searched exactly meanwhile`),
      );
    }
    const ready = record?.status === 'ready';
    if (this.readiness.size >= READY_CACHE_ENTRIES) this.readiness.clear();
    this.readiness.set(orgId, { ready, at: Date.now() });
    return ready;
  }

  /** What search does for the organisation right now, and its index's record if it has one. */
  async state(orgId: string): Promise<VectorSearchState> {
    const [chunks, index] = await Promise.all([this.documents.readyChunkCount(orgId), this.indexes.find(orgId)]);
    const exactSearchMaxChunks = this.config.kbExactSearchMaxChunks;
    // The search's own planner decides; k and the iterative scan change how it searches, not whether exactly.
    const plan = planSearch({
      orgChunks: chunks,
      k: 6,
      exactMaxChunks: exactSearchMaxChunks,
      ownIndexReady: index?.status === 'ready',
      iterativeScanAvailable: false,
    });
    return { chunks, exactSearchMaxChunks, searchedBy: plan.exact ? 'exact' : 'own_index', index };
  }
}

/** No index yet, or a build that failed FAILED_BUILD_RETRY_MS ago or more. */
function needsBuild(record: VectorIndexRecord | null, now: number): boolean {
  return !record || (record.status === 'failed' && now - record.updatedAt.getTime() >= FAILED_BUILD_RETRY_MS);
}
