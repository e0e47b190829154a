import { Controller, Delete, Get, Headers, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AgentSchedulesService, toAgentRunView, type ScheduleWithNextRuns } from '@pylon/agent-runs';
import type { AgentRun } from '@pylon/db';
import { toListResponse, toPageRequest } from '../common/pagination.dto';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { RequireScope } from '../auth/access.decorators';
import { CurrentPrincipal, assertOwnOrg, type Principal } from '../auth/principal';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { ApiIdempotencyKey, readIdempotencyKey } from '../common/idempotency';
import { NoBody } from '../common/no-body.guard';
import { QueryParams } from '../common/query-params';
import {
  AgentScheduleList,
  AgentScheduleView,
  CreateAgentScheduleRequest,
  ListAgentSchedulesQuery,
  ListScheduleRunsQuery,
  ScheduledRunList,
  ScheduledRunView,
  UpdateAgentScheduleRequest,
} from './dto/agent-schedule.dto';
import { JsonBody } from '../common/json-body';

@ApiTags('agent schedules')
@ApiBearerAuth('apiKey')
@Controller('api/v1/agent-schedules')
export class AgentSchedulesController {
  constructor(private readonly service: AgentSchedulesService) {}

  @Post()
  @RequireScope('runs:create')
  @ApiOperation({
    operationId: 'createAgentSchedule',
    summary: 'Run an agent version on a cron expression or an interval',
    description:
      'Each firing creates an ordinary run (in the run list, webhooks and usage, admitted like any run), exactly once per nominal time. A cron expression that is not valid, an interval under 1 second or an unknown time zone is 400 invalid_request, named in the Error-Detail header.',
  })
  @ApiIdempotencyKey('Same key and body return the same schedule; same key with another body is 409.')
  @ApiCreatedResponse({ type: AgentScheduleView })
  @ApiErrors(400, 401, 403, 409)
  async create(
    @CurrentPrincipal() principal: Principal,
    @JsonBody() body: CreateAgentScheduleRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<AgentScheduleView> {
    assertOwnOrg(principal, body.org_id);
    const { org_id: _org, ...request } = body;
    return toScheduleView(await this.service.create(principal.orgId, request, readIdempotencyKey(idempotencyKey)));
  }

  @Get()
  @RequireScope('runs:read')
  @ApiOperation({ operationId: 'listAgentSchedules', summary: 'List schedules, newest first' })
  @ApiOkResponse({ type: AgentScheduleList })
  @ApiErrors(400, 401, 403)
  async list(@CurrentPrincipal() principal: Principal, @QueryParams() query: ListAgentSchedulesQuery): Promise<AgentScheduleList> {
    if (query.org_id) assertOwnOrg(principal, query.org_id);
    return toListResponse(await this.service.list(principal.orgId, toPageRequest(query)), toScheduleView);
  }

  @Get(':scheduleId')
  @RequireScope('runs:read')
  @ApiOperation({ operationId: 'getAgentSchedule', summary: 'Get a schedule, with its next firing times' })
  @ApiUuidParam('scheduleId')
  @ApiOkResponse({ type: AgentScheduleView })
  @ApiErrors(400, 401, 403, 404)
  async get(@CurrentPrincipal() principal: Principal, @UuidParam('scheduleId') scheduleId: string): Promise<AgentScheduleView> {
    return toScheduleView(await this.service.get(principal.orgId, scheduleId));
  }

  @Patch(':scheduleId')
  @RequireScope('runs:create')
  @ApiOperation({
    operationId: 'updateAgentSchedule',
    summary: 'Change the input, the timing or the overlap policy; pause or resume',
    description: 'A `cron` replaces `every_seconds` and the reverse. Runs already created keep their input.',
  })
  @ApiUuidParam('scheduleId')
  @ApiOkResponse({ type: AgentScheduleView })
  @ApiErrors(400, 401, 403, 404)
  async update(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('scheduleId') scheduleId: string,
    @JsonBody() body: UpdateAgentScheduleRequest,
  ): Promise<AgentScheduleView> {
    return toScheduleView(await this.service.update(principal.orgId, scheduleId, body));
  }

  @Post(':scheduleId/trigger')
  @NoBody()
  @HttpCode(202)
  @RequireScope('runs:create')
  @ApiOperation({
    operationId: 'triggerAgentSchedule',
    summary: 'Fire the schedule now, once, even while paused or while an earlier run is not final',
    description: 'The run appears in GET …/runs within moments, with the trigger time as its scheduled_at.',
  })
  @ApiUuidParam('scheduleId')
  @ApiAcceptedResponse({ type: AgentScheduleView })
  @ApiErrors(400, 401, 403, 404)
  async trigger(@CurrentPrincipal() principal: Principal, @UuidParam('scheduleId') scheduleId: string): Promise<AgentScheduleView> {
    return toScheduleView(await this.service.trigger(principal.orgId, scheduleId));
  }

  @Delete(':scheduleId')
  @HttpCode(204)
  @RequireScope('runs:create')
  @ApiOperation({ operationId: 'deleteAgentSchedule', summary: 'Delete a schedule: no more firings; its runs stay' })
  @ApiUuidParam('scheduleId')
  @ApiNoContentResponse()
  @ApiErrors(400, 401, 403, 404)
  async delete(@CurrentPrincipal() principal: Principal, @UuidParam('scheduleId') scheduleId: string): Promise<void> {
    await this.service.delete(principal.orgId, scheduleId);
  }

  @Get(':scheduleId/runs')
  @RequireScope('runs:read')
  @ApiOperation({ operationId: 'listAgentScheduleRuns', summary: "The schedule's runs, newest first" })
  @ApiUuidParam('scheduleId')
  @ApiOkResponse({ type: ScheduledRunList })
  @ApiErrors(400, 401, 403, 404)
  async runs(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('scheduleId') scheduleId: string,
    @QueryParams() query: ListScheduleRunsQuery,
  ): Promise<ScheduledRunList> {
    return toListResponse(await this.service.runsOf(principal.orgId, scheduleId, toPageRequest(query)), toScheduledRunView);
  }
}

function toScheduleView({ schedule, nextRunTimes }: ScheduleWithNextRuns): AgentScheduleView {
  return {
    schedule_id: schedule.id,
    org_id: schedule.orgId,
    agent_version_id: schedule.agentVersionId,
    input: schedule.input,
    cron: schedule.cron,
    every_seconds: schedule.everySeconds,
    timezone: schedule.timezone,
    overlap: schedule.overlap,
    paused: schedule.paused,
    next_run_at: nextRunTimes[0]?.toISOString() ?? null,
    next_run_times: nextRunTimes.map((time) => time.toISOString()),
    created_at: schedule.createdAt.toISOString(),
    updated_at: schedule.updatedAt.toISOString(),
  };
}

function toScheduledRunView(run: AgentRun): ScheduledRunView {
  return { ...toAgentRunView(run), scheduled_at: (run.scheduledAt ?? run.createdAt).toISOString() };
}
