import { IsUuid } from '../../common/uuid';
import { IsOmittable } from '../../common/omittable';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { RUN_STATUSES, type RunStatus } from '@pylon/contracts';
import { OrgPageQuery } from '../../common/pagination.dto';

export const MAX_RUN_INPUT_CHARS = 100_000;

/** 4.1 request body. No other properties are allowed. */
export class CreateAgentRunRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUuid()
  org_id!: string;

  @ApiProperty({ format: 'uuid' })
  @IsUuid()
  agent_version_id!: string;

  @ApiProperty({ minLength: 1, maxLength: MAX_RUN_INPUT_CHARS, example: 'What does Pylon do?' })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_RUN_INPUT_CHARS)
  input!: string;
}

/** 2.2: exactly these three fields. */
export class AgentRunCreated {
  @ApiProperty({ format: 'uuid' }) run_id!: string;
  @ApiProperty({ enum: RUN_STATUSES }) status!: RunStatus;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

/** 2.1: exactly these nine fields. */
export class AgentRunView {
  @ApiProperty({ format: 'uuid' }) run_id!: string;
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty({ format: 'uuid' }) agent_version_id!: string;
  @ApiProperty() input!: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Set when the run succeeded.' }) output!: string | null;
  @ApiProperty({ enum: RUN_STATUSES }) status!: RunStatus;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Why the run failed; `cancelled` when cancelled.' })
  error!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class AgentRunList {
  @ApiProperty({ type: [AgentRunView] }) data!: AgentRunView[];
  @ApiProperty({ type: String, nullable: true }) next_cursor!: string | null;
}

export class ListAgentRunsQuery extends OrgPageQuery {
  @ApiPropertyOptional({ enum: RUN_STATUSES })
  @IsOmittable()
  @IsIn(RUN_STATUSES)
  status?: RunStatus;
}
