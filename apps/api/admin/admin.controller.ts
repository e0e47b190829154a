import { PylonError } from '@pylon/contracts';
import { Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OrganizationsService } from '@pylon/organizations';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { PageQuery, toListResponse, toPageRequest } from '../common/pagination.dto';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { AdminOnly } from '../auth/access.decorators';
import { ApiKeyService } from '@pylon/api-keys';
import { ApiKeyList, ApiKeyView, CreateApiKeyRequest, IssuedApiKeyView, RollApiKeyRequest, UpdateApiKeyRequest } from './dto/create-api-key.dto';
import { CreateOrgRequest, OrgList, OrgView } from './dto/create-org.dto';
import { toApiKeyView, toIssuedApiKeyView, toOrgView } from './views';
import { QueryParams } from '../common/query-params';
import { JsonBody } from '../common/json-body';

/** Operators' management of organisations and their API keys, with the admin token. */
@ApiTags('management')
@ApiBearerAuth('admin')
@AdminOnly()
@Controller('admin/v1')
export class AdminController {
  constructor(
    private readonly orgs: OrganizationsService,
    private readonly apiKeys: ApiKeyService,
  ) {}

  @Post('orgs')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createOrg', summary: 'Create an organisation' })
  @ApiCreatedResponse({ type: OrgView })
  @ApiErrors(400, 401)
  async createOrg(@JsonBody() body: CreateOrgRequest): Promise<OrgView> {
    return toOrgView(await this.orgs.create(body.name));
  }

  @Get('orgs')
  @ApiOperation({ operationId: 'listOrgs', summary: 'List organisations, newest first' })
  @ApiOkResponse({ type: OrgList })
  @ApiErrors(400, 401)
  async listOrgs(@QueryParams() query: PageQuery): Promise<OrgList> {
    return toListResponse(await this.orgs.list(toPageRequest(query)), toOrgView);
  }

  @Post('orgs/:org_id/api-keys')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createApiKey', summary: 'Create an API key; the secret is in this response only' })
  @ApiUuidParam('org_id')
  @ApiCreatedResponse({ type: IssuedApiKeyView })
  @ApiErrors(400, 401, 404)
  async createApiKey(@UuidParam('org_id') orgId: string, @JsonBody() body: CreateApiKeyRequest): Promise<IssuedApiKeyView> {
    await this.orgs.require(orgId);
    const expiresAt = body.expires_at ? new Date(body.expires_at) : null;
    const issued = await this.apiKeys.issue(orgId, body.name, body.scopes, expiresAt);
    return toIssuedApiKeyView(issued.apiKey, issued.secret);
  }

  @Get('orgs/:org_id/api-keys')
  @ApiOperation({ operationId: 'listApiKeys', summary: "List an organisation's API keys (no secrets)" })
  @ApiUuidParam('org_id')
  @ApiOkResponse({ type: ApiKeyList })
  @ApiErrors(400, 401, 404)
  async listApiKeys(@UuidParam('org_id') orgId: string, @QueryParams() query: PageQuery): Promise<ApiKeyList> {
    await this.orgs.require(orgId);
    return toListResponse(await this.apiKeys.list(orgId, toPageRequest(query)), toApiKeyView);
  }

  @Delete('api-keys/:key_id')
  @ApiOperation({ operationId: 'revokeApiKey', summary: 'Revoke an API key at once' })
  @ApiUuidParam('key_id')
  @ApiOkResponse({ type: ApiKeyView, description: 'The revoked key' })
  @ApiErrors(400, 401, 404)
  async revokeApiKey(@UuidParam('key_id') keyId: string): Promise<ApiKeyView> {
    const orgId = await this.apiKeys.orgOfKey(keyId);
    const key = orgId && (await this.apiKeys.revoke(orgId, keyId));
    if (!key) throw PylonError.notFound('no such API key');
    return toApiKeyView(key);
  }

  @Patch('api-keys/:key_id')
  @ApiOperation({ operationId: 'updateApiKey', summary: "Set the key's own rate limit (null: back to the configured default)" })
  @ApiUuidParam('key_id')
  @ApiOkResponse({ type: ApiKeyView })
  @ApiErrors(400, 401, 404)
  async updateApiKey(@UuidParam('key_id') keyId: string, @JsonBody() body: UpdateApiKeyRequest): Promise<ApiKeyView> {
    const orgId = await this.apiKeys.orgOfKey(keyId);
    const key = orgId && (await this.apiKeys.setRateLimit(orgId, keyId, { perSecond: body.rate_limit_per_second, burst: body.rate_limit_burst }));
    if (!key) throw PylonError.notFound('no such active API key');
    return toApiKeyView(key);
  }

  @Post('api-keys/:key_id/roll')
  @HttpCode(200)
  @ApiOperation({ operationId: 'rollApiKey', summary: 'Issue a new secret; the old one works for a grace period' })
  @ApiUuidParam('key_id')
  @ApiOkResponse({ type: IssuedApiKeyView })
  @ApiErrors(400, 401, 404)
  async rollApiKey(@UuidParam('key_id') keyId: string, @JsonBody() body: RollApiKeyRequest): Promise<IssuedApiKeyView> {
    const orgId = await this.apiKeys.orgOfKey(keyId);
    const rolled = orgId && (await this.apiKeys.roll(orgId, keyId, body.grace_seconds));
    if (!rolled) throw PylonError.notFound('no such active API key');
    return toIssuedApiKeyView(rolled.apiKey, rolled.secret);
  }
}
