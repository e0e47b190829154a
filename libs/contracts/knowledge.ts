/** A query (and an agent's knowledge_search tool) names at most this many knowledge bases. */
export const MAX_SCOPED_KNOWLEDGE_BASES = 20;
/** Knowledge base names: 1 to this many characters. */
export const MAX_KNOWLEDGE_BASE_NAME_CHARS = 200;
export const MAX_KNOWLEDGE_BASE_DESCRIPTION_CHARS = 2000;

export const DOCUMENT_STATUSES = ['processing', 'ready', 'failed'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** The kinds of file Pylon turns into knowledge, each recognised from its bytes. */
export const DOCUMENT_FILE_TYPES = ['pdf', 'docx', 'html', 'markdown', 'text'] as const;
export type DocumentFileType = (typeof DOCUMENT_FILE_TYPES)[number];

export const DOCUMENT_FILE_MEDIA_TYPES: Record<DocumentFileType, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  html: 'text/html',
  markdown: 'text/markdown',
  text: 'text/plain',
};

export const KNOWLEDGE_BATCH_STATUSES = ['processing', 'completed', 'cancelled'] as const;
export type KnowledgeBatchStatus = (typeof KNOWLEDGE_BATCH_STATUSES)[number];

/** The most documents one batch may carry. */
export const MAX_BATCH_DOCUMENTS = 500;

/** What the API hands a batch's workflow; it reads the documents to ingest from the batch. */
export interface IngestBatchInput {
  batchId: string;
  orgId: string;
}

/** Activities of the batch workflow. */
export interface KnowledgeBatchActivities {
  /** The batch's documents, each as its ingestion workflow's input. */
  batchDocuments(input: IngestBatchInput): Promise<IngestDocumentInput[]>;
  /** Marks the batch completed, or (when cancelled) fails the documents not yet begun; the events to announce. */
  finishBatch(input: IngestBatchInput & { cancelled: boolean; notStarted: string[] }): Promise<string[]>;
}

/**
 * What the API hands the ingestion workflow; activities reload the document by id and work on this
 * revision only (absent in histories from before revisions: revision 1).
 */
export interface IngestDocumentInput {
  docId: string;
  orgId: string;
  revision?: number;
  /** The revision is an uploaded file whose text must be extracted first. */
  fromFile?: boolean;
}

export interface IngestionPlan {
  /** false when the document was deleted before ingestion began. */
  exists: boolean;
  /** true when a later revision of the document was accepted: this one's ingestion does nothing more. */
  superseded?: boolean;
  chunkCount: number;
  batchCount: number;
}

export type IngestionOutcome =
  { status: 'ready'; chunkCount: number } | { status: 'failed'; reason: string } | { status: 'deleted' } | { status: 'superseded' };

/**
 * Publishing's result: false when the revision was no longer processing, or `superseded` by a later
 * accepted revision (then nothing was changed and no event recorded); the event to announce, if any.
 */
export interface PublishOutcome {
  published: boolean;
  superseded?: boolean;
  chunkCount: number;
  eventId: string | null;
}

/**
 * What ingestInOneStep did: published the document (or found it no longer processing: `published`
 * false), found it deleted, or left it to the batched path because it needs more batches than run at once.
 */
export type OneStepIngestion = ({ kind: 'published' } & PublishOutcome) | { kind: 'deleted' } | { kind: 'superseded' } | { kind: 'batched' };

/** What the extraction step found: the document gone (or final already), or its text there to be chunked. */
export type ExtractionStep = { exists: false } | { exists: true; extracted: boolean };

/** The error type of an extraction that can never succeed (a scanned PDF, a password, a bomb): not retried. */
export const EXTRACTION_FAILURE = 'ExtractionFailure';

/** Activities of the ingestion workflow. Workflows import this interface as a type only. */
export interface KnowledgeIngestionActivities {
  /** Extracts an uploaded file's text into the document, heartbeating with the pages or parts done. */
  extractDocumentText(input: IngestDocumentInput): Promise<ExtractionStep>;
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
