/** A query (and an agent's knowledge_search tool) names at most this many knowledge bases. */
export const MAX_SCOPED_KNOWLEDGE_BASES = 20;
/** Knowledge base names: 1 to this many characters. */
export const MAX_KNOWLEDGE_BASE_NAME_CHARS = 200;
export const MAX_KNOWLEDGE_BASE_DESCRIPTION_CHARS = 2000;

export const DOCUMENT_STATUSES = ['processing', 'ready', 'failed'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** What the API hands the ingestion workflow; activities reload the document by id. */
export interface IngestDocumentInput {
  docId: string;
  orgId: string;
}

export interface IngestionPlan {
  /** false when the document was deleted before ingestion began. */
  exists: boolean;
  chunkCount: number;
  batchCount: number;
}

export type IngestionOutcome = { status: 'ready'; chunkCount: number } | { status: 'failed'; reason: string } | { status: 'deleted' };

/** Publishing's result: false when the document was no longer processing; the event to announce, if any. */
export interface PublishOutcome {
  published: boolean;
  chunkCount: number;
  eventId: string | null;
}

/**
 * What ingestInOneStep did: published the document (or found it no longer processing: `published`
 * false), found it deleted, or left it to the batched path because it needs more batches than run at once.
 */
export type OneStepIngestion = ({ kind: 'published' } & PublishOutcome) | { kind: 'deleted' } | { kind: 'batched' };

/** Activities of the ingestion workflow. Workflows import this interface as a type only. */
export interface KnowledgeIngestionActivities {
  /** Chunks, embeds and publishes a document that fits the embedding batches run at once, without drafts. */
  ingestInOneStep(input: IngestDocumentInput): Promise<OneStepIngestion>;
  /** Chunks the document into unpublished drafts, replacing any drafts of an earlier attempt. */
  prepareChunks(input: IngestDocumentInput): Promise<IngestionPlan>;
  embedChunkBatch(input: IngestDocumentInput & { batchIndex: number }): Promise<void>;
  /** Makes every chunk searchable and the document ready, in one transaction. */
  publishDocument(input: IngestDocumentInput): Promise<PublishOutcome>;
  /** The id of the event recorded with the change, or null when the document was already final. */
  markDocumentFailed(input: IngestDocumentInput & { reason: string }): Promise<string | null>;
}

/** What building an organisation's vector index came to. */
export interface VectorIndexOutcome {
  /** `ready`, or `not-needed` when the organisation is (again) small enough to be searched exactly. */
  status: 'ready' | 'not-needed';
  chunks: number;
  buildMs: number;
}

export interface KnowledgeVectorIndexActivities {
  /** Builds the organisation's own HNSW index without blocking its searches or writes, heartbeating meanwhile. */
  buildVectorIndex(input: { orgId: string }): Promise<VectorIndexOutcome>;
  /** Records that the build failed for good, with the reason; its searches stay exact. */
  markVectorIndexFailed(input: { orgId: string; reason: string }): Promise<void>;
}

/** Error types of embedding activities that must not be retried. */
export const NON_RETRYABLE_EMBEDDING_ERRORS = ['EmbeddingRejected', 'EmbeddingUnavailable'] as const;

/** How many embedding batches of one document run at once. */
export const EMBEDDING_BATCH_PARALLELISM = 4;

/** How `POST /api/v1/knowledge/query` finds matches: nearest embeddings, full-text search, or both fused. */
export const SEARCH_MODES = ['vector', 'keyword', 'hybrid'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];
export type SearchLeg = Exclude<SearchMode, 'hybrid'>;

export const EQUALITY_OPERATORS = ['eq', 'ne'] as const;
export const RANGE_OPERATORS = ['gt', 'gte', 'lt', 'lte'] as const;
export const SET_OPERATORS = ['in', 'nin'] as const;
export const COMPOUND_OPERATORS = ['and', 'or'] as const;
export type ComparisonOperator = (typeof EQUALITY_OPERATORS)[number] | (typeof RANGE_OPERATORS)[number] | (typeof SET_OPERATORS)[number];

export type FilterScalar = string | number | boolean;

/**
 * A condition on one attribute of a document: `title`, or a top-level key of its metadata
 * (`metadata.<key>` names a metadata key explicitly, e.g. one called "title").
 */
export interface ComparisonFilter {
  type: ComparisonOperator;
  attribute: { kind: 'title' } | { kind: 'metadata'; key: string };
  value: FilterScalar | FilterScalar[];
}

export interface CompoundFilter {
  type: (typeof COMPOUND_OPERATORS)[number];
  filters: SearchFilter[];
}

/** The shape of OpenAI's vector-store attribute filters, validated (see parseSearchFilter). */
export type SearchFilter = ComparisonFilter | CompoundFilter;
