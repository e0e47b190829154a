import { Controller, Get, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AgentsService } from '@pylon/agents';
import { ApiIdempotencyKey, readIdempotencyKey } from '../common/idempotency';
import { PageQuery, toListResponse, toPageRequest } from '../common/pagination.dto';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { RequireScope } from '../auth/access.decorators';
import { CurrentPrincipal, assertOwnOrg, type Principal } from '../auth/principal';
import { ApiErrors } from '../openapi/api-errors.decorator';
import {
  AgentList,
  AgentVersionList,
  AgentVersionView,
  AgentView,
  CreateAgentRequest,
  CreateAgentVersionRequest,
  ListAgentsQuery,
  ModelProviderList,
} from './dto/agent.dto';
import { toAgentVersionView, toAgentView } from './views';
import { QueryParams } from '../common/query-params';
import { JsonBody } from '../common/json-body';

/** Agents and their immutable versions, for an organisation's own keys with `agents:manage`. */
@ApiTags('management')
@ApiBearerAuth('apiKey')
@RequireScope('agents:manage')
@Controller('api/v1')
export class AgentsController {
  constructor(private readonly service: AgentsService) {}

  @Post('agents')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createAgent', summary: 'Create an agent' })
  @ApiIdempotencyKey('Same key and body return the same agent; another body is 409.')
  @ApiCreatedResponse({ type: AgentView })
  @ApiErrors(400, 401, 403, 409)
  async createAgent(
    @CurrentPrincipal() principal: Principal,
    @JsonBody() body: CreateAgentRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<AgentView> {
    assertOwnOrg(principal, body.org_id);
    return toAgentView(await this.service.createAgent(principal.orgId, body.name, readIdempotencyKey(idempotencyKey)));
  }

  @Get('models')
  @ApiOperation({
    operationId: 'listModelProviders',
    summary: 'The model providers an agent version can name, and whether the organisation can run each, on whose key',
  })
  @ApiOkResponse({ type: ModelProviderList })
  @ApiErrors(401, 403)
  async listModelProviders(@CurrentPrincipal() principal: Principal): Promise<ModelProviderList> {
    const providers = await this.service.modelProviders(principal.orgId);
    return {
      data: providers.map(({ provider, configured, models, keyed, available, keySource }) => ({
        provider,
        configured,
        available,
        takes_key: keyed,
        key_source: keySource,
        models,
      })),
    };
  }

  @Get('agents')
  @ApiOperation({ operationId: 'listAgents', summary: 'List agents, newest first' })
  @ApiOkResponse({ type: AgentList })
  @ApiErrors(400, 401, 403)
  async listAgents(@CurrentPrincipal() principal: Principal, @QueryParams() query: ListAgentsQuery): Promise<AgentList> {
    if (query.org_id) assertOwnOrg(principal, query.org_id);
    return toListResponse(await this.service.listAgents(principal.orgId, toPageRequest(query)), toAgentView);
  }

  @Get('agents/:agent_id')
  @ApiOperation({ operationId: 'getAgent', summary: 'Get an agent' })
  @ApiUuidParam('agent_id')
  @ApiOkResponse({ type: AgentView })
  @ApiErrors(400, 401, 403, 404)
  async getAgent(@CurrentPrincipal() principal: Principal, @UuidParam('agent_id') agentId: string): Promise<AgentView> {
    return toAgentView(await this.service.getAgent(principal.orgId, agentId));
  }

  @Post('agents/:agent_id/versions')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createAgentVersion', summary: 'Create an immutable agent version' })
  @ApiUuidParam('agent_id')
  @ApiIdempotencyKey('Same key and body return the same version; another body is 409.')
  @ApiCreatedResponse({ type: AgentVersionView })
  @ApiErrors(400, 401, 403, 404, 409)
  async createVersion(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('agent_id') agentId: string,
    @JsonBody() body: CreateAgentVersionRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<AgentVersionView> {
    return toAgentVersionView(await this.service.createVersion(principal.orgId, agentId, body, readIdempotencyKey(idempotencyKey)));
  }

  @Get('agents/:agent_id/versions')
  @ApiOperation({ operationId: 'listAgentVersions', summary: "List an agent's versions, newest first" })
  @ApiUuidParam('agent_id')
  @ApiOkResponse({ type: AgentVersionList })
  @ApiErrors(400, 401, 403, 404)
  async listVersions(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('agent_id') agentId: string,
    @QueryParams() query: PageQuery,
  ): Promise<AgentVersionList> {
    const page = await this.service.listVersions(principal.orgId, agentId, toPageRequest(query));
    return toListResponse(page, toAgentVersionView);
  }

  @Get('agent-versions/:agent_version_id')
  @ApiOperation({ operationId: 'getAgentVersion', summary: 'Get an agent version' })
  @ApiUuidParam('agent_version_id')
  @ApiOkResponse({ type: AgentVersionView })
  @ApiErrors(400, 401, 403, 404)
  async getVersion(@CurrentPrincipal() principal: Principal, @UuidParam('agent_version_id') versionId: string): Promise<AgentVersionView> {
    return toAgentVersionView(await this.service.getVersion(principal.orgId, versionId));
  }
}
