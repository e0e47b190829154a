import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { MAX_DISPATCH_WEIGHT, MAX_ORG_LIMIT, MIN_DISPATCH_WEIGHT } from '@pylon/contracts';

// Nullable: null puts the default back. Hence IsOptional (which lets null through) below.
const override = (what: string, setting: string) => ({
  type: 'integer' as const,
  nullable: true,
  minimum: 1,
  maximum: MAX_ORG_LIMIT,
  description: `${what}; null: back to the default ${setting}; absent: unchanged.`,
});

export class UpdateOrgLimitsRequest {
  @ApiPropertyOptional(override('Webhook endpoints the organisation may have', 'WEBHOOK_MAX_ENDPOINTS'))
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ORG_LIMIT)
  webhook_endpoints?: number | null;

  @ApiPropertyOptional(override('Test events the organisation may send per minute', 'WEBHOOK_TEST_EVENTS_PER_MINUTE'))
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ORG_LIMIT)
  test_events_per_minute?: number | null;

  @ApiPropertyOptional(override('Deliveries in flight at once to one endpoint', 'WEBHOOK_MAX_INFLIGHT_PER_ENDPOINT'))
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ORG_LIMIT)
  inflight_deliveries_per_endpoint?: number | null;

  @ApiPropertyOptional({
    type: 'number',
    nullable: true,
    minimum: MIN_DISPATCH_WEIGHT,
    maximum: MAX_DISPATCH_WEIGHT,
    description:
      "The organisation's share of the workers while others have work waiting too, relative to theirs (Temporal's fairness weight: 2 gets twice the share of 1); alone, it gets all of them whatever its weight. null: back to the default 1; absent: unchanged.",
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(MIN_DISPATCH_WEIGHT)
  @Max(MAX_DISPATCH_WEIGHT)
  dispatch_weight?: number | null;

  @ApiPropertyOptional(override('Agent runs the organisation may have queued (accepted, not yet started) before another is 429', 'MAX_QUEUED_RUNS'))
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ORG_LIMIT)
  queued_runs?: number | null;

  @ApiPropertyOptional(override('Documents the organisation may have processing before another is 429', 'MAX_QUEUED_DOCUMENTS'))
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ORG_LIMIT)
  queued_documents?: number | null;
}

export class OrgLimitOverridesView {
  @ApiProperty({ type: Number, nullable: true }) webhook_endpoints!: number | null;
  @ApiProperty({ type: Number, nullable: true }) test_events_per_minute!: number | null;
  @ApiProperty({ type: Number, nullable: true }) inflight_deliveries_per_endpoint!: number | null;
  @ApiProperty({ type: Number, nullable: true }) dispatch_weight!: number | null;
  @ApiProperty({ type: Number, nullable: true }) queued_runs!: number | null;
  @ApiProperty({ type: Number, nullable: true }) queued_documents!: number | null;
}

export class OrgLimitsView {
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty({ description: 'Webhook endpoints the organisation may have (in effect).' }) webhook_endpoints!: number;
  @ApiProperty({ description: 'Test events it may send per minute (in effect).' }) test_events_per_minute!: number;
  @ApiProperty({ description: 'Deliveries in flight at once to one of its endpoints (in effect).' }) inflight_deliveries_per_endpoint!: number;
  @ApiProperty({ description: 'Its share of the workers while others have work waiting too (in effect).' }) dispatch_weight!: number;
  @ApiProperty({ description: 'Agent runs it may have queued (in effect).' }) queued_runs!: number;
  @ApiProperty({ description: 'Documents it may have processing (in effect).' }) queued_documents!: number;
  @ApiProperty({ type: OrgLimitOverridesView, description: "The organisation's own values; null where the configured default applies." })
  overrides!: OrgLimitOverridesView;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When an override last changed; null if never.' })
  updated_at!: string | null;
}
