import { IsOmittable } from '../../common/omittable';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsISO8601, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { MAX_RATE_LIMIT, SCOPES, type Scope } from '@pylon/contracts';

export class CreateApiKeyRequest {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'backend' })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiProperty({ type: [String], enum: SCOPES, example: ['runs:create', 'runs:read'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SCOPES.length)
  @IsIn(SCOPES, { each: true })
  scopes!: Scope[];

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'The key stops working at this time (in the future); null or absent: never.',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  expires_at?: string | null;
}

export class RollApiKeyRequest {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 2_592_000,
    description: 'How long the old secret keeps working (default from configuration).',
  })
  @IsOmittable()
  @IsInt()
  @Min(0)
  @Max(2_592_000)
  grace_seconds?: number;
}

export class UpdateApiKeyRequest {
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_RATE_LIMIT,
    description: 'Requests per second this key may sustain; null: back to RATE_LIMIT_PER_SECOND; absent: unchanged.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_RATE_LIMIT)
  rate_limit_per_second?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_RATE_LIMIT,
    description: 'Requests this key may send at once (at least its rate per second); null: back to RATE_LIMIT_BURST; absent: unchanged.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_RATE_LIMIT)
  rate_limit_burst?: number | null;
}

export class ApiKeyView {
  @ApiProperty({ format: 'uuid' }) key_id!: string;
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [String] }) scopes!: string[];
  @ApiProperty({ description: 'The beginning of the key, to recognise it.' }) hint!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expires_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revoked_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_used_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Until when the secret before the last roll still works.' })
  previous_secret_expires_at!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: "The key's own rate, requests per second; null: RATE_LIMIT_PER_SECOND." })
  rate_limit_per_second!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: "The key's own burst, requests at once; null: RATE_LIMIT_BURST." })
  rate_limit_burst!: number | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class IssuedApiKeyView extends ApiKeyView {
  @ApiProperty({ description: 'The secret API key. Shown only in this response; store it now.' })
  api_key!: string;
}

export class ApiKeyList {
  @ApiProperty({ type: [ApiKeyView] }) data!: ApiKeyView[];
  @ApiProperty({ type: String, nullable: true }) next_cursor!: string | null;
}
