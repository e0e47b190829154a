import { IsUuid } from '../../common/uuid';
import { IsOmittable } from '../../common/omittable';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, OmitType, PickType, getSchemaPath } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import {
  COMPOUND_OPERATORS,
  DOCUMENT_FILE_TYPES,
  DOCUMENT_STATUSES,
  EQUALITY_OPERATORS,
  MAX_SCOPED_KNOWLEDGE_BASES,
  RANGE_OPERATORS,
  SEARCH_MODES,
  SET_OPERATORS,
  type DocumentFileType,
  type DocumentStatus,
  type SearchLeg,
  type SearchMode,
} from '@pylon/contracts';
import { FILTER_LIMITS } from '@pylon/knowledge';
import { OrgPageQuery } from '../../common/pagination.dto';

export const MAX_QUERY_CHARS = 4_000;
export const MAX_TITLE_CHARS = 500;

export class CreateDocumentRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUuid()
  org_id!: string;

  @ApiProperty({ minLength: 1, maxLength: MAX_TITLE_CHARS, example: 'Pylon handbook' })
  @IsString()
  @Length(1, MAX_TITLE_CHARS)
  title!: string;

  @ApiProperty({
    minLength: 1,
    description: 'Text or Markdown. At most KB_MAX_DOCUMENT_CHARS characters (413 beyond).',
    example: '# Pylon\n\nPylon runs agents.',
  })
  @IsString()
  @MinLength(1)
  content!: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'Free-form JSON object, returned with the document and its matches exactly as sent (at most 16 KiB). Integers beyond ±2^53 would lose digits as JSON numbers and are refused: send them as strings.',
  })
  @IsOmittable()
  @IsObject()
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      "The knowledge base it goes to (one of the organisation's, else 400). Absent: the organisation's default base (its oldest), created as `Default` when it has none.",
  })
  @IsOmittable()
  @IsUuid()
  knowledge_base_id?: string;
}

/** `PUT /api/v1/knowledge/documents/{doc_id}`: the new revision. No other properties are allowed. */
export class ReplaceDocumentRequest extends PickType(CreateDocumentRequest, ['org_id', 'content'] as const) {
  @ApiPropertyOptional({ minLength: 1, maxLength: MAX_TITLE_CHARS, description: 'The new title; the current one is kept if absent.' })
  @IsOmittable()
  @IsString()
  @Length(1, MAX_TITLE_CHARS)
  title?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'The new metadata (replacing the current object, at most 16 KiB); the current one is kept if absent.',
  })
  @IsOmittable()
  @IsObject()
  metadata?: Record<string, unknown>;
}

export class DocumentProgress {
  @ApiProperty({ description: 'Chunks embedded so far.' }) chunks_embedded!: number;
  @ApiProperty({ description: 'All chunks of the document.' }) chunks_total!: number;
}

export class DocumentView {
  @ApiProperty({ format: 'uuid' }) doc_id!: string;
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty({ format: 'uuid', description: 'The knowledge base it is in.' }) knowledge_base_id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ enum: DOCUMENT_STATUSES, description: 'Of the latest accepted revision (`revision`).' }) status!: DocumentStatus;
  @ApiProperty({ type: String, nullable: true, description: 'Why ingestion of the latest accepted revision failed.' }) failure_reason!: string | null;
  @ApiProperty({ description: 'Searchable chunks (of `ready_revision`); 0 until a revision is ready.' }) chunk_count!: number;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'The latest accepted revision: 1 at create, one more with each replacement.' })
  revision!: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 1,
    description: 'The revision search answers from (its chunks); null until a revision is ready. A failed later revision leaves it as it was.',
  })
  ready_revision!: number | null;
  @ApiProperty({
    type: DocumentProgress,
    nullable: true,
    description: 'While a document larger than one round of embedding batches is processing: how far its embedding is. Otherwise null.',
  })
  progress!: DocumentProgress | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata!: Record<string, unknown>;
  @ApiProperty({
    type: () => DocumentFile,
    nullable: true,
    description: 'The uploaded original (GET …/documents/{doc_id}/file), or null for a document made from text.',
  })
  file!: DocumentFile | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class DocumentFile {
  @ApiProperty({ type: String, nullable: true, description: 'The name the upload gave it.' }) name!: string | null;
  @ApiProperty({ enum: DOCUMENT_FILE_TYPES, description: 'What its bytes were recognised as.' }) type!: DocumentFileType;
  @ApiProperty({ example: 'application/pdf' }) media_type!: string;
  @ApiProperty() size_bytes!: number;
}

export class DocumentList {
  @ApiProperty({ type: [DocumentView] }) data!: DocumentView[];
  @ApiProperty({ type: String, nullable: true }) next_cursor!: string | null;
}

export class ListDocumentsQuery extends OrgPageQuery {
  @ApiPropertyOptional({ enum: DOCUMENT_STATUSES })
  @IsOmittable()
  @IsIn(DOCUMENT_STATUSES)
  status?: DocumentStatus;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only the documents of this knowledge base.' })
  @IsOmittable()
  @IsUuid()
  knowledge_base_id?: string;
}

/** 4.3 request body. No other properties are allowed. */
export class KnowledgeSearchRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUuid()
  org_id!: string;

  @ApiProperty({ minLength: 1, maxLength: MAX_QUERY_CHARS, example: 'How do I cancel a run?' })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_QUERY_CHARS)
  query!: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 20, default: 6 })
  @ValidateIf((body: KnowledgeSearchRequest) => body.match_count !== undefined)
  @IsInt()
  @Min(1)
  @Max(20)
  match_count?: number;
}

const PAGE_START = {
  type: 'integer',
  nullable: true,
  description: 'The first page the chunk is on (1-based), for a document with pages (PDF); else null.',
} as const;
const PAGE_END = { type: 'integer', nullable: true, description: 'The last page the chunk is on, for a document with pages; else null.' } as const;

/** 2.3, plus the document title, the chunk's index, the document's metadata and the chunk's pages (the spec allows more fields). */
export class KnowledgeMatch {
  @ApiProperty({ format: 'uuid' }) chunk_id!: string;
  @ApiProperty({ format: 'uuid' }) doc_id!: string;
  @ApiProperty() content!: string;
  @ApiProperty({ type: 'number', format: 'float', description: 'Cosine similarity to the query, higher is closer.' }) score!: number;
  @ApiPropertyOptional() title!: string;
  @ApiPropertyOptional() chunk_index!: number;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) metadata!: Record<string, unknown>;
  @ApiPropertyOptional(PAGE_START) page_start!: number | null;
  @ApiPropertyOptional(PAGE_END) page_end!: number | null;
}

export class KnowledgeSearchResponse {
  @ApiProperty({ type: [KnowledgeMatch], description: 'Best first.' }) matches!: KnowledgeMatch[];
}

const SCALAR_SCHEMA = { oneOf: [{ type: 'string', maxLength: FILTER_LIMITS.maxStringChars }, { type: 'number' }, { type: 'boolean' }] };
const KEY_DESCRIPTION =
  "`title` is the document's title; any other key is a top-level key of its metadata (`metadata.<key>` names one explicitly, e.g. `metadata.title`).";

/** `eq`/`ne`: equal (jsonb equality: 1 equals 1.0, "1" does not). A document without the key matches `ne`. */
export class EqualityFilter {
  @ApiProperty({ enum: EQUALITY_OPERATORS }) type!: string;
  @ApiProperty({ minLength: 1, maxLength: FILTER_LIMITS.maxKeyChars, description: KEY_DESCRIPTION, example: 'category' }) key!: string;
  @ApiProperty({ ...SCALAR_SCHEMA, example: 'handbook' }) value!: string | number | boolean;
}

/** `gt`/`gte`/`lt`/`lte`: numbers as numbers, strings by collation (ISO dates compare as dates); other types never match. */
export class RangeFilter {
  @ApiProperty({ enum: RANGE_OPERATORS }) type!: string;
  @ApiProperty({ minLength: 1, maxLength: FILTER_LIMITS.maxKeyChars, description: KEY_DESCRIPTION, example: 'year' }) key!: string;
  @ApiProperty({ oneOf: [{ type: 'string', maxLength: FILTER_LIMITS.maxStringChars }, { type: 'number' }], example: 2024 }) value!: string | number;
}

/** `in`/`nin`: equal to one of / none of the values. A document without the key matches `nin`. */
export class SetFilter {
  @ApiProperty({ enum: SET_OPERATORS }) type!: string;
  @ApiProperty({ minLength: 1, maxLength: FILTER_LIMITS.maxKeyChars, description: KEY_DESCRIPTION, example: 'lang' }) key!: string;
  @ApiProperty({ type: 'array', minItems: 1, maxItems: FILTER_LIMITS.maxSetValues, items: SCALAR_SCHEMA, example: ['en', 'de'] }) value!: Array<
    string | number | boolean
  >;
}

const ANY_FILTER = () => ({
  oneOf: [
    { $ref: getSchemaPath(EqualityFilter) },
    { $ref: getSchemaPath(RangeFilter) },
    { $ref: getSchemaPath(SetFilter) },
    { $ref: getSchemaPath(CompoundFilter) },
  ],
});

/** `and`/`or` of other filters, nested at most FILTER_LIMITS.maxDepth deep. */
export class CompoundFilter {
  @ApiProperty({ enum: COMPOUND_OPERATORS }) type!: string;
  @ApiProperty({ type: 'array', minItems: 1, items: ANY_FILTER() }) filters!: unknown[];
}

export const QUERY_DEFAULT_MATCH_COUNT = 6;

/** `POST /api/v1/knowledge/query`. No other properties are allowed. */
@ApiExtraModels(EqualityFilter, RangeFilter, SetFilter, CompoundFilter)
export class KnowledgeQueryRequest extends PickType(KnowledgeSearchRequest, ['org_id', 'query'] as const) {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 50, default: QUERY_DEFAULT_MATCH_COUNT })
  @IsOmittable()
  @IsInt()
  @Min(1)
  @Max(50)
  match_count?: number;

  @ApiPropertyOptional({
    enum: SEARCH_MODES,
    default: 'hybrid',
    description: '`vector`: nearest embeddings; `keyword`: PostgreSQL full-text search; `hybrid`: both, fused by reciprocal rank fusion.',
  })
  @IsOmittable()
  @IsIn(SEARCH_MODES)
  mode?: SearchMode;

  @ApiPropertyOptional({
    ...ANY_FILTER(),
    description: `Conditions on each match's document (the shape of OpenAI's vector-store attribute filters). At most ${FILTER_LIMITS.maxComparisons} comparisons.`,
  })
  @IsOmittable()
  @IsObject()
  filters?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'number', minimum: -1, maximum: 1, description: 'Matches whose `score` is lower are left out.' })
  @IsOmittable()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-1)
  @Max(1)
  score_threshold?: number;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    minItems: 1,
    maxItems: MAX_SCOPED_KNOWLEDGE_BASES,
    description: "Search only these of the organisation's knowledge bases (each must be one of them, else 400). Absent: all of them.",
  })
  @IsOmittable()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_SCOPED_KNOWLEDGE_BASES)
  @IsUuid({ each: true })
  knowledge_base_ids?: string[];
}

export class KnowledgeQueryMatch extends OmitType(KnowledgeMatch, ['score', 'page_start', 'page_end'] as const) {
  @ApiProperty({
    type: 'number',
    format: 'float',
    description:
      'vector: cosine similarity; keyword: ts_rank_cd normalised to [0, 1); hybrid: reciprocal rank fusion divided by its maximum (1 = first in both legs).',
  })
  score!: number;
  @ApiProperty({ format: 'uuid', description: "The knowledge base of the chunk's document." }) knowledge_base_id!: string;
  @ApiProperty({ enum: ['vector', 'keyword'], isArray: true, description: 'The legs that found this chunk.' }) found_by!: SearchLeg[];
  @ApiProperty({ type: 'integer', nullable: true, description: "Rank in the vector leg (1 = nearest), null if it didn't find it." }) vector_rank!:
    number | null;
  @ApiProperty({ type: 'number', nullable: true, description: 'Cosine similarity, when the vector leg found it.' }) vector_similarity!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: "Rank in the keyword leg, null if it didn't find it." }) keyword_rank!: number | null;
  @ApiProperty({ type: 'number', nullable: true, description: 'Normalised ts_rank_cd, when the keyword leg found it.' }) keyword_score!:
    number | null;
  @ApiProperty(PAGE_START) page_start!: number | null;
  @ApiProperty(PAGE_END) page_end!: number | null;
}

export class KnowledgeQueryResponse {
  @ApiProperty({ type: [KnowledgeQueryMatch], description: 'Best first.' }) matches!: KnowledgeQueryMatch[];
}
