import { Controller, Delete, Get, Headers, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { KnowledgeBasesService } from '@pylon/knowledge';
import { ApiIdempotencyKey, readIdempotencyKey } from '../common/idempotency';
import { toListResponse, toPageRequest } from '../common/pagination.dto';
import { QueryParams } from '../common/query-params';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { RequireScope } from '../auth/access.decorators';
import { CurrentPrincipal, assertOwnOrg, type Principal } from '../auth/principal';
import { ApiErrors } from '../openapi/api-errors.decorator';
import {
  CreateKnowledgeBaseRequest,
  DeleteKnowledgeBaseQuery,
  KnowledgeBaseList,
  KnowledgeBaseView,
  ListKnowledgeBasesQuery,
  UpdateKnowledgeBaseRequest,
} from './dto/knowledge-base.dto';
import { JsonBody } from '../common/json-body';

@ApiTags('knowledge')
@ApiBearerAuth('apiKey')
@Controller('api/v1/knowledge-bases')
export class KnowledgeBasesController {
  constructor(private readonly service: KnowledgeBasesService) {}

  @Post()
  @RequireScope('kb:write')
  @ApiOperation({ operationId: 'createKnowledgeBase', summary: 'Create a knowledge base: a named group of documents, searchable on its own' })
  @ApiIdempotencyKey('Same key and body return the same knowledge base; same key with another body is 409.')
  @ApiCreatedResponse({ type: KnowledgeBaseView })
  @ApiErrors(400, 401, 403, 409)
  async create(
    @CurrentPrincipal() principal: Principal,
    @JsonBody() body: CreateKnowledgeBaseRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<KnowledgeBaseView> {
    assertOwnOrg(principal, body.org_id);
    return this.service.create(principal.orgId, { name: body.name, description: body.description }, readIdempotencyKey(idempotencyKey));
  }

  @Get()
  @RequireScope('kb:read')
  @ApiOperation({ operationId: 'listKnowledgeBases', summary: 'List knowledge bases, newest first' })
  @ApiOkResponse({ type: KnowledgeBaseList })
  @ApiErrors(400, 401, 403)
  async list(@CurrentPrincipal() principal: Principal, @QueryParams() query: ListKnowledgeBasesQuery): Promise<KnowledgeBaseList> {
    if (query.org_id) assertOwnOrg(principal, query.org_id);
    return toListResponse(await this.service.list(principal.orgId, toPageRequest(query)), (view) => view);
  }

  @Get(':knowledge_base_id')
  @RequireScope('kb:read')
  @ApiOperation({ operationId: 'getKnowledgeBase', summary: 'Get a knowledge base and how many documents it holds' })
  @ApiUuidParam('knowledge_base_id')
  @ApiOkResponse({ type: KnowledgeBaseView })
  @ApiErrors(400, 401, 403, 404)
  async get(@CurrentPrincipal() principal: Principal, @UuidParam('knowledge_base_id') baseId: string): Promise<KnowledgeBaseView> {
    return this.service.get(principal.orgId, baseId);
  }

  @Patch(':knowledge_base_id')
  @RequireScope('kb:write')
  @ApiOperation({ operationId: 'updateKnowledgeBase', summary: 'Rename a knowledge base or change its description' })
  @ApiUuidParam('knowledge_base_id')
  @ApiOkResponse({ type: KnowledgeBaseView })
  @ApiErrors(400, 401, 403, 404, 409)
  async update(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('knowledge_base_id') baseId: string,
    @JsonBody() body: UpdateKnowledgeBaseRequest,
  ): Promise<KnowledgeBaseView> {
    return this.service.update(principal.orgId, baseId, { name: body.name, description: body.description });
  }

  @Delete(':knowledge_base_id')
  @HttpCode(204)
  @RequireScope('kb:write')
  @ApiOperation({
    operationId: 'deleteKnowledgeBase',
    summary: 'Delete a knowledge base: an empty one, or with cascade=true its documents too',
    description:
      '409 knowledge_base_not_empty while it holds documents, unless cascade=true deletes them (and their chunks) with it in one transaction.',
  })
  @ApiUuidParam('knowledge_base_id')
  @ApiNoContentResponse()
  @ApiErrors(400, 401, 403, 404, 409)
  async delete(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('knowledge_base_id') baseId: string,
    @QueryParams() query: DeleteKnowledgeBaseQuery,
  ): Promise<void> {
    await this.service.delete(principal.orgId, baseId, query.cascade ?? false);
  }
}
