import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';

export class PutModelCredentialRequest {
  @ApiProperty({
    minLength: 1,
    maxLength: 1024,
    description: "The organisation's API key for the provider. It is sealed at rest and never shown again: answers show its hint.",
    example: 'sk-proj-…',
  })
  @IsString()
  @Length(1, 1024)
  @Matches(/^[\x21-\x7e]+$/, { message: 'api_key must be printable ASCII without spaces' })
  api_key!: string;
}

export class ModelCredentialView {
  @ApiProperty({ example: 'anthropic' }) provider!: string;
  @ApiProperty({ example: 'sk-…a1b2', description: 'The key masked: its first three and last four characters (fewer of a short key).' })
  api_key!: string;
  @ApiProperty({ format: 'date-time', description: 'When the organisation first set a key for the provider.' }) created_at!: string;
  @ApiProperty({ format: 'date-time', description: 'When the key was last replaced.' }) updated_at!: string;
}

export class ModelCredentialList {
  @ApiProperty({ type: [ModelCredentialView] }) data!: ModelCredentialView[];
}

export class ModelCredentialCheckView {
  @ApiProperty({ example: 'anthropic' }) provider!: string;
  @ApiProperty({ description: 'Whether the provider accepted the key (one call listing its models, which costs nothing).' }) valid!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Why not, as the provider said it; null when the key works.' })
  reason!: string | null;
}
