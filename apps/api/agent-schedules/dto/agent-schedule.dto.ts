import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { MIN_SCHEDULE_INTERVAL_SECONDS, RUN_STATUSES, SCHEDULE_OVERLAPS, type RunStatus, type ScheduleOverlap } from '@pylon/contracts';
import { IsOmittable } from '../../common/omittable';
import { IsUuid } from '../../common/uuid';
import { OrgPageQuery, PageQuery } from '../../common/pagination.dto';
import { AgentRunView, MAX_RUN_INPUT_CHARS } from '../../agent-runs/dto/agent-run.dto';

/** A year: the longest interval. */
const MAX_INTERVAL_SECONDS = 31_536_000;

const CRON_DESCRIPTION =
  'Five fields, `minute hour day-of-month month day-of-week` (names such as `MON` and `JAN` allowed), or a macro such as `@daily`, in `timezone`. Exactly one of `cron` and `every_seconds`.';
const EVERY_DESCRIPTION = 'Fire every this many seconds (at least 1). Exactly one of `cron` and `every_seconds`.';
const OVERLAP_DESCRIPTION =
  "When a firing comes while the schedule's previous run is not final: `skip` it (default), `buffer_one` (run it once the previous ends; at most one waits), `allow_all` (run it at once).";

export class CreateAgentScheduleRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUuid()
  org_id!: string;

  @ApiProperty({ format: 'uuid', description: 'Each firing runs this agent version.' })
  @IsUuid()
  agent_version_id!: string;

  @ApiProperty({ minLength: 1, maxLength: MAX_RUN_INPUT_CHARS, example: 'Summarise yesterday’s support tickets.' })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_RUN_INPUT_CHARS)
  input!: string;

  @ApiPropertyOptional({ maxLength: 200, example: '0 9 * * MON-FRI', description: CRON_DESCRIPTION })
  @IsOmittable()
  @IsString()
  @MaxLength(200)
  cron?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: MIN_SCHEDULE_INTERVAL_SECONDS,
    maximum: MAX_INTERVAL_SECONDS,
    example: 3600,
    description: EVERY_DESCRIPTION,
  })
  @IsOmittable()
  @IsInt()
  @Min(MIN_SCHEDULE_INTERVAL_SECONDS)
  @Max(MAX_INTERVAL_SECONDS)
  every_seconds?: number;

  @ApiPropertyOptional({ maxLength: 64, default: 'UTC', example: 'Europe/Paris', description: 'An IANA time zone, for `cron`.' })
  @IsOmittable()
  @IsString()
  @MaxLength(64)
  timezone?: string;

  @ApiPropertyOptional({ enum: SCHEDULE_OVERLAPS, default: 'skip', description: OVERLAP_DESCRIPTION })
  @IsOmittable()
  @IsIn(SCHEDULE_OVERLAPS)
  overlap?: ScheduleOverlap;

  @ApiPropertyOptional({ default: false, description: 'Created paused: it fires only once resumed (or triggered).' })
  @IsOmittable()
  @IsBoolean()
  paused?: boolean;
}

export class UpdateAgentScheduleRequest {
  @ApiPropertyOptional({ minLength: 1, maxLength: MAX_RUN_INPUT_CHARS, description: 'The input of the firings from now on.' })
  @IsOmittable()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_RUN_INPUT_CHARS)
  input?: string;

  @ApiPropertyOptional({ maxLength: 200, description: `${CRON_DESCRIPTION} Replaces \`every_seconds\`.` })
  @IsOmittable()
  @IsString()
  @MaxLength(200)
  cron?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: MIN_SCHEDULE_INTERVAL_SECONDS,
    maximum: MAX_INTERVAL_SECONDS,
    description: `${EVERY_DESCRIPTION} Replaces \`cron\`.`,
  })
  @IsOmittable()
  @IsInt()
  @Min(MIN_SCHEDULE_INTERVAL_SECONDS)
  @Max(MAX_INTERVAL_SECONDS)
  every_seconds?: number;

  @ApiPropertyOptional({ maxLength: 64, description: 'An IANA time zone, for `cron`.' })
  @IsOmittable()
  @IsString()
  @MaxLength(64)
  timezone?: string;

  @ApiPropertyOptional({ enum: SCHEDULE_OVERLAPS, description: OVERLAP_DESCRIPTION })
  @IsOmittable()
  @IsIn(SCHEDULE_OVERLAPS)
  overlap?: ScheduleOverlap;

  @ApiPropertyOptional({ description: '`true` pauses (no firings until resumed), `false` resumes.' })
  @IsOmittable()
  @IsBoolean()
  paused?: boolean;
}

export class AgentScheduleView {
  @ApiProperty({ format: 'uuid' }) schedule_id!: string;
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty({ format: 'uuid' }) agent_version_id!: string;
  @ApiProperty() input!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Set when the schedule fires by cron.' }) cron!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Set when the schedule fires by interval.' }) every_seconds!: number | null;
  @ApiProperty() timezone!: string;
  @ApiProperty({ enum: SCHEDULE_OVERLAPS }) overlap!: ScheduleOverlap;
  @ApiProperty() paused!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'The next firing; null while paused.' }) next_run_at!: string | null;
  @ApiProperty({ type: 'array', items: { type: 'string', format: 'date-time' }, description: 'The next few firings (up to 5); empty while paused.' })
  next_run_times!: string[];
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class AgentScheduleList {
  @ApiProperty({ type: [AgentScheduleView] }) data!: AgentScheduleView[];
  @ApiProperty({ type: String, nullable: true }) next_cursor!: string | null;
}

export class ListAgentSchedulesQuery extends OrgPageQuery {}

export class ListScheduleRunsQuery extends PageQuery {}

/** A run of the schedule: the run as GET /api/v1/agent-runs/{runId} shows it, and the firing's nominal time. */
export class ScheduledRunView extends AgentRunView {
  @ApiProperty({ format: 'date-time', description: 'The time the schedule fired for (its nominal time; the trigger time for a trigger).' })
  scheduled_at!: string;
}

export class ScheduledRunList {
  @ApiProperty({ type: [ScheduledRunView] }) data!: ScheduledRunView[];
  @ApiProperty({ type: String, nullable: true }) next_cursor!: string | null;
}
