import { IsUuid } from '../../common/uuid';
import { IsOmittable } from '../../common/omittable';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString, Length, Max, Min } from 'class-validator';
import { OrgPageQuery } from '../../common/pagination.dto';

export class CreateTokenGrantRequest {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 1_000_000_000_000, example: 5_000_000 })
  @IsInt()
  @Min(1)
  @Max(1_000_000_000_000)
  amount!: number;

  @ApiProperty({ minLength: 1, maxLength: 500, example: 'monthly plan' })
  @IsString()
  @Length(1, 500)
  reason!: string;
}

export class TokenEntryView {
  @ApiProperty({ format: 'uuid' }) entry_id!: string;
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty({ enum: ['grant', 'debit', 'refund'] }) kind!: string;
  @ApiProperty({ description: 'Always positive.' }) amount!: number;
  @ApiProperty({ description: '+amount for grants and refunds, −amount for debits.' }) delta!: number;
  @ApiProperty() balance_after!: number;
  @ApiProperty({ type: String, nullable: true, example: 'video_generation' }) reference_type!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) reference_id!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'The debit a refund gives back.' }) refund_of!: string | null;
  @ApiProperty({ type: String, nullable: true }) reason!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class TokenGrantView {
  @ApiProperty({ type: TokenEntryView }) entry!: TokenEntryView;
  @ApiProperty({ description: 'The balance right after this grant (a replay answers the same).' }) balance!: number;
}

export class TokenBalanceView {
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty() balance!: number;
}

export class TokenEntryList {
  @ApiProperty({ type: [TokenEntryView] }) data!: TokenEntryView[];
  @ApiProperty({ type: String, nullable: true }) next_cursor!: string | null;
}

export class OrgScopedQuery {
  @ApiPropertyOptional({ format: 'uuid', description: "Defaults to the key's organisation." })
  @IsOmittable()
  @IsUuid()
  org_id?: string;
}

export class ListTokenEntriesQuery extends OrgPageQuery {}
