import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { MAX_KNOWLEDGE_BASE_DESCRIPTION_CHARS, MAX_KNOWLEDGE_BASE_NAME_CHARS } from '@pylon/contracts';
import { IsOmittable } from '../../common/omittable';
import { IsUuid } from '../../common/uuid';
import { OrgPageQuery } from '../../common/pagination.dto';

const NAME_DESCRIPTION = 'Unique within the organisation (409 knowledge_base_name_taken otherwise).';

/** `POST /api/v1/knowledge-bases`. No other properties are allowed. */
export class CreateKnowledgeBaseRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUuid()
  org_id!: string;

  @ApiProperty({ minLength: 1, maxLength: MAX_KNOWLEDGE_BASE_NAME_CHARS, description: NAME_DESCRIPTION, example: 'Support handbook' })
  @IsString()
  @Length(1, MAX_KNOWLEDGE_BASE_NAME_CHARS)
  name!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: MAX_KNOWLEDGE_BASE_DESCRIPTION_CHARS,
    example: 'What the support team answers from.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_KNOWLEDGE_BASE_DESCRIPTION_CHARS)
  description?: string | null;
}

/** `PATCH /api/v1/knowledge-bases/{knowledge_base_id}`: the fields sent change, the others stay. */
export class UpdateKnowledgeBaseRequest {
  @ApiPropertyOptional({ minLength: 1, maxLength: MAX_KNOWLEDGE_BASE_NAME_CHARS, description: NAME_DESCRIPTION })
  @IsOmittable()
  @IsString()
  @Length(1, MAX_KNOWLEDGE_BASE_NAME_CHARS)
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_KNOWLEDGE_BASE_DESCRIPTION_CHARS, description: 'null clears it.' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_KNOWLEDGE_BASE_DESCRIPTION_CHARS)
  description?: string | null;
}

export class KnowledgeBaseView {
  @ApiProperty({ format: 'uuid' }) knowledge_base_id!: string;
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({
    description: "Whether it is the organisation's default base (its oldest): where a document goes that names no knowledge_base_id.",
  })
  is_default!: boolean;
  @ApiProperty({ type: 'integer', description: 'Its documents, of every status.' }) document_count!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class KnowledgeBaseList {
  @ApiProperty({ type: [KnowledgeBaseView] }) data!: KnowledgeBaseView[];
  @ApiProperty({ type: String, nullable: true }) next_cursor!: string | null;
}

export class ListKnowledgeBasesQuery extends OrgPageQuery {}

export class DeleteKnowledgeBaseQuery {
  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description:
      'true: delete its documents (and their chunks) with it, in one transaction. false: a base that holds documents is 409 knowledge_base_not_empty.',
  })
  @IsOmittable()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  cascade?: boolean;
}
