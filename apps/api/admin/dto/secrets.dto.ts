import { ApiProperty } from '@nestjs/swagger';

export class ResealSecretsView {
  @ApiProperty({ type: 'integer', description: 'Agent versions whose MCP headers were sealed again under SECRETS_KEY.' }) resealed_versions!: number;
  @ApiProperty({ type: 'integer', description: 'Agent versions with MCP headers already under SECRETS_KEY.' }) current_versions!: number;
  @ApiProperty({ type: 'integer', description: "The organisation's model-provider keys sealed again under SECRETS_KEY." })
  resealed_model_credentials!: number;
  @ApiProperty({ type: 'integer', description: "The organisation's model-provider keys already under SECRETS_KEY." })
  current_model_credentials!: number;
}
