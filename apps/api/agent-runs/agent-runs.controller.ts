import { Controller, Get, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { toListResponse, toPageRequest } from '../common/pagination.dto';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { RequireScope } from '../auth/access.decorators';
import { CurrentPrincipal, assertOwnOrg, type Principal } from '../auth/principal';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { AgentRunCreated, AgentRunList, AgentRunView, CreateAgentRunRequest, ListAgentRunsQuery } from './dto/agent-run.dto';
import { readIdempotencyKey, ApiIdempotencyKey } from '../common/idempotency';
import { AgentRunsService, toAgentRunCreated, toAgentRunView } from '@pylon/agent-runs';
import { NoBody } from '../common/no-body.guard';
import { QueryParams } from '../common/query-params';
import { JsonBody } from '../common/json-body';

@ApiTags('agent runs')
@ApiBearerAuth('apiKey')
@Controller('api/v1/agent-runs')
export class AgentRunsController {
  constructor(private readonly service: AgentRunsService) {}

  @Post()
  @HttpCode(200)
  @RequireScope('runs:create')
  @ApiOperation({
    operationId: 'createAgentRun',
    summary: 'Create a run of an agent version',
    description:
      "The run is queued and starts as soon as a worker is free, dispatched fairly between organisations. 429 rate_limited with Retry-After when the key is over its rate or the organisation already has its cap of queued runs. 402 insufficient_tokens when the version's model is priced and the organisation's balance is empty (see GET /api/v1/agent-runs/{run_id}/usage).",
  })
  @ApiIdempotencyKey('Same key and body return the same run; same key with another body is 409.')
  @ApiOkResponse({ type: AgentRunCreated })
  @ApiErrors(400, 401, 402, 403, 409)
  async create(
    @CurrentPrincipal() principal: Principal,
    @JsonBody() body: CreateAgentRunRequest,
    @Headers('idempotency-key') idempotencyKeyHeader: string | undefined,
  ): Promise<AgentRunCreated> {
    assertOwnOrg(principal, body.org_id);
    const run = await this.service.create(
      principal.orgId,
      { agent_version_id: body.agent_version_id, input: body.input },
      readIdempotencyKey(idempotencyKeyHeader),
    );
    return toAgentRunCreated(run);
  }

  @Get()
  @RequireScope('runs:read')
  @ApiOperation({ operationId: 'listAgentRuns', summary: 'List runs, newest first, optionally by status' })
  @ApiOkResponse({ type: AgentRunList })
  @ApiErrors(400, 401, 403)
  async list(@CurrentPrincipal() principal: Principal, @QueryParams() query: ListAgentRunsQuery): Promise<AgentRunList> {
    if (query.org_id) assertOwnOrg(principal, query.org_id);
    return toListResponse(await this.service.list(principal.orgId, query.status, toPageRequest(query)), toAgentRunView);
  }

  @Get(':runId')
  @RequireScope('runs:read')
  @ApiOperation({ operationId: 'getAgentRun', summary: 'Get a run' })
  @ApiUuidParam('runId')
  @ApiOkResponse({ type: AgentRunView })
  @ApiErrors(400, 401, 403, 404)
  async get(@CurrentPrincipal() principal: Principal, @UuidParam('runId') runId: string): Promise<AgentRunView> {
    return toAgentRunView(await this.service.get(principal.orgId, runId));
  }

  @Post(':runId/cancel')
  @NoBody()
  @HttpCode(202)
  @RequireScope('runs:create')
  @ApiOperation({ operationId: 'cancelAgentRun', summary: 'Stop a queued or running run; it ends failed with error "cancelled"' })
  @ApiUuidParam('runId')
  @ApiAcceptedResponse({ type: AgentRunView })
  @ApiErrors(400, 401, 403, 404, 409)
  async cancel(@CurrentPrincipal() principal: Principal, @UuidParam('runId') runId: string): Promise<AgentRunView> {
    return toAgentRunView(await this.service.cancel(principal.orgId, runId));
  }
}
