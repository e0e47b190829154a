import { ApiPropertyOptional } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { IsObject, IsString, Length } from 'class-validator';
import { IsOmittable } from '../../common/omittable';
import { IsUuid } from '../../common/uuid';
import { MAX_TITLE_CHARS } from './knowledge.dto';

/** The text fields of an upload, once `metadata` is parsed from its JSON text. */
export class UploadKnowledgeFileFields {
  @ApiPropertyOptional({ format: 'uuid', description: "The key's organisation; may be left out." })
  @IsOmittable()
  @IsUuid()
  org_id?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: MAX_TITLE_CHARS, description: "The document's title; the file's name when left out." })
  @IsOmittable()
  @IsString()
  @Length(1, MAX_TITLE_CHARS)
  title?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'A JSON object as text (at most 16 KiB).' })
  @IsOmittable()
  @IsObject()
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({ format: 'uuid', description: "The knowledge base it goes into; the organisation's default when left out." })
  @IsOmittable()
  @IsUuid()
  knowledge_base_id?: string;
}

/** The fields a single upload's form may carry besides its file. */
export const UPLOAD_FIELD_NAMES = ['org_id', 'title', 'metadata', 'knowledge_base_id'] as const;

/** The OpenAPI schema of the upload form (its fields validated as UploadKnowledgeFileFields). */
export const UPLOAD_FILE_FORM_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['file'],
  additionalProperties: false,
  properties: {
    file: {
      type: 'string',
      format: 'binary',
      description: 'PDF, DOCX, HTML, Markdown or UTF-8 text, recognised from its bytes; at most KB_MAX_FILE_BYTES (413 beyond).',
    },
    org_id: { type: 'string', format: 'uuid' },
    title: { type: 'string', minLength: 1, maxLength: MAX_TITLE_CHARS },
    metadata: { type: 'string', description: 'A JSON object, e.g. {"team": "docs"} (at most 16 KiB).' },
    knowledge_base_id: { type: 'string', format: 'uuid', description: "The knowledge base it goes into; the organisation's default when left out." },
  },
};
