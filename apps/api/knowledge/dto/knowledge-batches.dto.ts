import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, ValidateNested } from 'class-validator';
import { DOCUMENT_STATUSES, KNOWLEDGE_BATCH_STATUSES, MAX_BATCH_DOCUMENTS, type DocumentStatus, type KnowledgeBatchStatus } from '@pylon/contracts';
import { IsOmittable } from '../../common/omittable';
import { IsUuid } from '../../common/uuid';
import { CreateDocumentRequest } from './knowledge.dto';

/** One text document of a batch: a document create without its org_id. */
export class BatchDocumentRequest extends OmitType(CreateDocumentRequest, ['org_id', 'knowledge_base_id'] as const) {}

export class CreateKnowledgeBatchRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUuid()
  org_id!: string;

  @ApiPropertyOptional({ format: 'uuid', description: "The knowledge base every document goes into; the organisation's default when left out." })
  @IsOmittable()
  @IsUuid()
  knowledge_base_id?: string;

  @ApiProperty({ type: [BatchDocumentRequest], minItems: 1, maxItems: MAX_BATCH_DOCUMENTS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BATCH_DOCUMENTS)
  @ValidateNested({ each: true })
  @Type(() => BatchDocumentRequest)
  documents!: BatchDocumentRequest[];
}

export class KnowledgeBatchCounts {
  @ApiProperty() total!: number;
  @ApiProperty() processing!: number;
  @ApiProperty() ready!: number;
  @ApiProperty() failed!: number;
}

export class KnowledgeBatchDocument {
  @ApiProperty({ format: 'uuid' }) doc_id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ enum: DOCUMENT_STATUSES }) status!: DocumentStatus;
  @ApiProperty({ type: String, nullable: true }) failure_reason!: string | null;
}

export class KnowledgeBatchView {
  @ApiProperty({ format: 'uuid' }) batch_id!: string;
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty({ enum: KNOWLEDGE_BATCH_STATUSES, description: 'processing until every document is ready or failed, or cancelled.' })
  status!: KnowledgeBatchStatus;
  @ApiProperty({ type: KnowledgeBatchCounts, description: "The batch's documents by status." }) counts!: KnowledgeBatchCounts;
  @ApiProperty({ type: [KnowledgeBatchDocument], description: 'Every document of the batch, in the order sent (deleted ones are gone).' })
  documents!: KnowledgeBatchDocument[];
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** The fields a batch's form may carry besides its files. */
export const BATCH_FIELD_NAMES = ['org_id', 'metadata', 'knowledge_base_id'] as const;

/** The OpenAPI schema of a batch sent as a form (multipart/form-data). */
export const BATCH_FORM_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['file'],
  additionalProperties: false,
  properties: {
    file: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_BATCH_DOCUMENTS,
      items: { type: 'string', format: 'binary' },
      description: 'One part named `file` per document: PDF, DOCX, HTML, Markdown or UTF-8 text, each at most KB_MAX_FILE_BYTES.',
    },
    org_id: { type: 'string', format: 'uuid' },
    metadata: { type: 'string', description: 'A JSON object given to every document of the batch (at most 16 KiB).' },
  },
};
