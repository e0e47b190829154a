import { IsOmittable } from '../../common/omittable';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsObject, IsString, IsUUID, Length, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';
import { DOCUMENT_STATUSES, type DocumentStatus } from '@pylon/contracts';
import { PageQuery } from '../../common/pagination.dto';

export const MAX_QUERY_CHARS = 4_000;
export const MAX_TITLE_CHARS = 500;

export class CreateDocumentRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  org_id!: string;

  @ApiProperty({ minLength: 1, maxLength: MAX_TITLE_CHARS, example: 'Pylon handbook' })
  @IsString()
  @Length(1, MAX_TITLE_CHARS)
  title!: string;

  @ApiProperty({ minLength: 1, description: 'Text or Markdown. At most KB_MAX_DOCUMENT_CHARS characters (413 beyond).', example: '# Pylon\n\nPylon runs agents.' })
  @IsString()
  @MinLength(1)
  content!: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Free-form JSON object, returned with the document and its matches (at most 16 KiB).' })
  @IsOmittable()
  @IsObject()
  metadata?: Record<string, unknown>;
}

export class DocumentView {
  @ApiProperty({ format: 'uuid' }) doc_id!: string;
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ enum: DOCUMENT_STATUSES }) status!: DocumentStatus;
  @ApiProperty({ type: String, nullable: true, description: 'Why ingestion failed.' }) failure_reason!: string | null;
  @ApiProperty({ description: 'Searchable chunks; 0 until ready.' }) chunk_count!: number;
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class DocumentList {
  @ApiProperty({ type: [DocumentView] }) data!: DocumentView[];
  @ApiProperty({ type: String, nullable: true }) next_cursor!: string | null;
}

export class ListDocumentsQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: "Defaults to the key's organisation." })
  @IsOmittable()
  @IsUUID()
  org_id?: string;

  @ApiPropertyOptional({ enum: DOCUMENT_STATUSES })
  @IsOmittable()
  @IsIn(DOCUMENT_STATUSES)
  status?: DocumentStatus;
}

/** 4.3 request body. No other properties are allowed. */
export class KnowledgeSearchRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
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

/** 2.3, plus the document title, the chunk's index and the document's metadata. */
export class KnowledgeMatch {
  @ApiProperty({ format: 'uuid' }) chunk_id!: string;
  @ApiProperty({ format: 'uuid' }) doc_id!: string;
  @ApiProperty() content!: string;
  @ApiProperty({ type: 'number', format: 'float', description: 'Cosine similarity to the query, higher is closer.' }) score!: number;
  @ApiPropertyOptional() title!: string;
  @ApiPropertyOptional() chunk_index!: number;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) metadata!: Record<string, unknown>;
}

export class KnowledgeSearchResponse {
  @ApiProperty({ type: [KnowledgeMatch], description: 'Best first.' }) matches!: KnowledgeMatch[];
}
