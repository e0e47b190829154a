import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsNumber, IsString, Matches, Max, Min, ValidateNested } from 'class-validator';

const MODEL_OR_PROVIDER = /^[a-z0-9_-]+\/(\*|[^\s*]{1,200})$/i;
const MAX_PRICE = 1_000_000;

export class ModelPriceEntry {
  @ApiProperty({ description: '`provider/model`, or `provider/*` for every model of the provider.', example: 'openai/gpt-4o-mini' })
  @IsString()
  @Matches(MODEL_OR_PROVIDER, { message: 'model must be provider/model or provider/*' })
  model!: string;

  @ApiProperty({ minimum: 0, maximum: MAX_PRICE, description: 'Service tokens per 1 000 input tokens.', example: 0.15 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_PRICE)
  input_per_1k_tokens!: number;

  @ApiProperty({ minimum: 0, maximum: MAX_PRICE, description: 'Service tokens per 1 000 output tokens.', example: 0.6 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_PRICE)
  output_per_1k_tokens!: number;
}

export class ReplaceModelPricesRequest {
  @ApiProperty({ type: [ModelPriceEntry], maxItems: 200, description: "The organisation's own prices; [] puts MODEL_PRICES back in effect." })
  @IsArray()
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => ModelPriceEntry)
  prices!: ModelPriceEntry[];
}

export class ModelPricesView {
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty({ type: [ModelPriceEntry], description: "The organisation's own prices (they win over the configured ones)." })
  organisation!: ModelPriceEntry[];
  @ApiProperty({ type: [ModelPriceEntry], description: 'MODEL_PRICES of this deployment. A model priced nowhere is free.' })
  configured!: ModelPriceEntry[];
}
