import { ApiProperty } from '@nestjs/swagger';

export class AgentRunTurnUsageView {
  @ApiProperty({ type: 'integer', description: '1 for the run’s first model call, then 2, 3… (a repair turn counts as one).' }) turn!: number;
  @ApiProperty({ example: 'openai/gpt-4o-mini' }) model!: string;
  @ApiProperty({ type: 'integer' }) input_tokens!: number;
  @ApiProperty({ type: 'integer' }) output_tokens!: number;
  @ApiProperty({ type: 'integer', description: 'Of the input tokens, those the provider read from its prompt cache (0 when it does not say).' })
  cached_input_tokens!: number;
  @ApiProperty({ type: 'integer', description: 'Of the output tokens, those the model spent reasoning (0 when the provider does not say).' })
  reasoning_tokens!: number;
  @ApiProperty({
    enum: ['organization', 'operator'],
    nullable: true,
    type: String,
    description:
      "Whose provider key the turn ran on: the organisation's own (MODEL_PRICES do not apply), the server's, or null (an offline model, or a server that takes no key).",
  })
  key_source!: 'organization' | 'operator' | null;
  @ApiProperty({
    enum: ['provider', 'tokenizer'],
    description:
      "`provider`: the provider's own count; `tokenizer`: counted by Pylon with o200k_base (the offline models, or a provider that reports none).",
  })
  counted_by!: 'provider' | 'tokenizer';
  @ApiProperty({ type: 'integer', description: "What the turn costs in service tokens at the model's price (0 for a free model)." })
  cost_tokens!: number;
  @ApiProperty({ description: 'Whether the cost was debited; false when the balance could not pay it (the run failed with insufficient_tokens).' })
  charged!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class AgentRunUsageTotalView {
  @ApiProperty({ type: 'integer' }) turns!: number;
  @ApiProperty({ type: 'integer' }) input_tokens!: number;
  @ApiProperty({ type: 'integer' }) output_tokens!: number;
  @ApiProperty({ type: 'integer', description: 'Service tokens debited for the run: the sum of its charged turns.' }) cost_tokens!: number;
}

export class AgentRunUsageView {
  @ApiProperty({ format: 'uuid' }) run_id!: string;
  @ApiProperty({ type: [AgentRunTurnUsageView] }) turns!: AgentRunTurnUsageView[];
  @ApiProperty({ type: AgentRunUsageTotalView }) total!: AgentRunUsageTotalView;
}
