import { IsUuid } from '../../common/uuid';
import { IsOmittable } from '../../common/omittable';
import { NON_BLANK_TEXT_PATTERN } from '../../common/storable-json';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, IsUrl, Matches, MaxLength } from 'class-validator';
import { DEFAULT_ASPECT_RATIO, VIDEO_ASPECT_RATIOS, VIDEO_STATES, type VideoAspectRatio, type VideoState } from '@pylon/contracts';

export const MAX_PROMPT_CHARS = 2_000;
export const MAX_IDS_PER_REQUEST = 50;
const HTTP_URL = { protocols: ['http', 'https'], require_protocol: true, require_tld: false, require_valid_protocol: true };

/** 4.4 and 4.6 request body. */
export class CreateGenerationRequest {
  @ApiProperty({
    minLength: 1,
    maxLength: MAX_PROMPT_CHARS,
    pattern: NON_BLANK_TEXT_PATTERN,
    description: 'Not only whitespace.',
    example: 'A lighthouse at dawn, waves crashing',
  })
  @IsString()
  @Matches(new RegExp(NON_BLANK_TEXT_PATTERN, 'u'), { message: 'user_prompt must not be empty' })
  @MaxLength(MAX_PROMPT_CHARS)
  user_prompt!: string;

  @ApiPropertyOptional({ enum: VIDEO_ASPECT_RATIOS, default: DEFAULT_ASPECT_RATIO })
  @IsOmittable()
  @IsIn(VIDEO_ASPECT_RATIOS)
  aspect_ratio?: VideoAspectRatio;

  @ApiPropertyOptional({ default: false })
  @IsOmittable()
  @IsBoolean()
  expand_prompt?: boolean;

  @ApiPropertyOptional({
    type: String,
    format: 'uri',
    maxLength: 2_048,
    nullable: true,
    description: 'Start image (http or https); null or absent: none.',
  })
  @IsOptional()
  @IsUrl(HTTP_URL)
  @MaxLength(2_048)
  image_url?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'uri',
    maxLength: 2_048,
    nullable: true,
    description: 'End image (http or https); null or absent: none.',
  })
  @IsOptional()
  @IsUrl(HTTP_URL)
  @MaxLength(2_048)
  image_end_url?: string | null;
}

export class GeneratedVideo {
  @ApiProperty() height!: number;
  @ApiProperty() width!: number;
  @ApiProperty({ format: 'uri' }) thumbnail!: string;
  @ApiProperty({ format: 'uri' }) url!: string;
}

/** 2.4. */
export class VideoGenerationResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The provider’s estimate while processing, in seconds.' }) estimate_wait_seconds!:
    string | null;
  @ApiProperty({ type: String, nullable: true }) liked!: string | null;
  @ApiProperty() prompt!: string;
  @ApiProperty({ enum: VIDEO_STATES }) state!: VideoState;
  @ApiProperty({ type: GeneratedVideo, nullable: true, description: 'Set once completed.' }) video!: GeneratedVideo | null;
}

export class GetGenerationsQuery {
  @ApiProperty({
    type: 'string',
    format: 'uuid',
    isArray: true,
    minItems: 1,
    maxItems: MAX_IDS_PER_REQUEST,
    description: `Generation ids, as ids[0]=…&ids[1]=… or ids=…&ids=… (at most ${MAX_IDS_PER_REQUEST}).`,
  })
  @Transform(({ value }: { value: unknown }) => asIdList(value))
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_IDS_PER_REQUEST)
  @IsUuid({ each: true })
  ids!: string[];
}

/**
 * One id given plainly is a list of one. Indices past the query parser's array limit (100) come as an
 * object keyed by index: read as the list they are, so the caller hears it has too many ids.
 */
function asIdList(value: unknown): unknown {
  if (typeof value === 'string') return [value];
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length > 0 && entries.every(([key]) => /^\d+$/.test(key))) {
      return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, id]) => id);
    }
  }
  return value;
}
