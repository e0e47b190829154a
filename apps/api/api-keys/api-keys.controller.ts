import { Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PageQuery, toListResponse, toPageRequest } from '../common/pagination.dto';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { RequireScope } from '../auth/access.decorators';
import { ApiKeyService } from '@pylon/api-keys';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { ApiKeyList, ApiKeyView, CreateApiKeyRequest, IssuedApiKeyView, RollApiKeyRequest } from '../admin/dto/create-api-key.dto';
import { toApiKeyView, toIssuedApiKeyView } from '../admin/views';
import { QueryParams } from '../common/query-params';
import { JsonBody } from '../common/json-body';

/** The organisation's own API keys (its "API Keys area"), for keys with `keys:manage`. */
@ApiTags('api keys')
@ApiBearerAuth('apiKey')
@Controller('api/v1/api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeyService) {}

  @Post()
  @HttpCode(201)
  @RequireScope('keys:manage')
  @ApiOperation({
    operationId: 'createOwnApiKey',
    summary: "Create a key in the caller's organisation, with at most the caller's scopes; the secret is in this response only",
  })
  @ApiCreatedResponse({ type: IssuedApiKeyView })
  @ApiErrors(400, 401, 403)
  async create(@CurrentPrincipal() principal: Principal, @JsonBody() body: CreateApiKeyRequest): Promise<IssuedApiKeyView> {
    const expiresAt = body.expires_at ? new Date(body.expires_at) : null;
    const issued = await this.apiKeys.issueByKey(principal, body.name, body.scopes, expiresAt);
    return toIssuedApiKeyView(issued.apiKey, issued.secret);
  }

  @Get()
  @RequireScope('keys:manage')
  @ApiOperation({ operationId: 'listOwnApiKeys', summary: "The caller's organisation's keys (no secrets), newest first" })
  @ApiOkResponse({ type: ApiKeyList })
  @ApiErrors(400, 401, 403)
  async list(@CurrentPrincipal() principal: Principal, @QueryParams() query: PageQuery): Promise<ApiKeyList> {
    return toListResponse(await this.apiKeys.list(principal.orgId, toPageRequest(query)), toApiKeyView);
  }

  @Post(':key_id/roll')
  @HttpCode(200)
  @RequireScope('keys:manage')
  @ApiOperation({ operationId: 'rollOwnApiKey', summary: 'Issue a new secret for a key; the old one works for a grace period' })
  @ApiUuidParam('key_id')
  @ApiOkResponse({ type: IssuedApiKeyView })
  @ApiErrors(400, 401, 403, 404)
  async roll(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('key_id') keyId: string,
    @JsonBody() body: RollApiKeyRequest,
  ): Promise<IssuedApiKeyView> {
    const rolled = await this.apiKeys.rollInOrg(principal, keyId, body.grace_seconds);
    return toIssuedApiKeyView(rolled.apiKey, rolled.secret);
  }

  @Delete(':key_id')
  @RequireScope('keys:manage')
  @ApiOperation({ operationId: 'revokeOwnApiKey', summary: 'Revoke a key of the organisation at once' })
  @ApiUuidParam('key_id')
  @ApiOkResponse({ type: ApiKeyView, description: 'The revoked key' })
  @ApiErrors(400, 401, 403, 404)
  async revoke(@CurrentPrincipal() principal: Principal, @UuidParam('key_id') keyId: string): Promise<ApiKeyView> {
    return toApiKeyView(await this.apiKeys.revokeInOrg(principal, keyId));
  }
}
