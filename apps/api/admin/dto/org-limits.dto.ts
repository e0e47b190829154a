import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_ORG_LIMIT } from '@pylon/contracts';

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

  @ApiPropertyOptional(override('Agent runs the organisation may start per second, whatever its keys allow', 'AGENT_RUNS_PER_SECOND'))
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ORG_LIMIT)
  agent_runs_per_second?: number | null;
}

export class OrgLimitOverridesView {
  @ApiProperty({ type: Number, nullable: true }) webhook_endpoints!: number | null;
  @ApiProperty({ type: Number, nullable: true }) test_events_per_minute!: number | null;
  @ApiProperty({ type: Number, nullable: true }) inflight_deliveries_per_endpoint!: number | null;
  @ApiProperty({ type: Number, nullable: true }) agent_runs_per_second!: number | null;
}

export class OrgLimitsView {
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty({ description: 'Webhook endpoints the organisation may have (in effect).' }) webhook_endpoints!: number;
  @ApiProperty({ description: 'Test events it may send per minute (in effect).' }) test_events_per_minute!: number;
  @ApiProperty({ description: 'Deliveries in flight at once to one of its endpoints (in effect).' }) inflight_deliveries_per_endpoint!: number;
  @ApiProperty({ description: 'Agent runs it may start per second (in effect).' }) agent_runs_per_second!: number;
  @ApiProperty({ type: OrgLimitOverridesView, description: "The organisation's own values; null where the configured default applies." })
  overrides!: OrgLimitOverridesView;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When an override last changed; null if never.' })
  updated_at!: string | null;
}
