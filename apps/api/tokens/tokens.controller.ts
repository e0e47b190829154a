import { Controller, Get, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { LedgerService } from '@pylon/ledger';
import { readIdempotencyKey, ApiIdempotencyKey } from '../common/idempotency';
import { toListResponse, toPageRequest } from '../common/pagination.dto';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { AdminOnly, RequireScope } from '../auth/access.decorators';
import { CurrentPrincipal, assertOwnOrg, type Principal } from '../auth/principal';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { CreateTokenGrantRequest, ListTokenEntriesQuery, OrgScopedQuery, TokenBalanceView, TokenEntryList, TokenGrantView } from './dto/tokens.dto';
import { toTokenEntryView } from './views';
import { QueryParams } from '../common/query-params';
import { JsonBody } from '../common/json-body';

@ApiTags('management')
@Controller()
export class TokensController {
  constructor(private readonly ledger: LedgerService) {}

  @Post('admin/v1/orgs/:org_id/token-grants')
  @HttpCode(201)
  @AdminOnly()
  @ApiBearerAuth('admin')
  @ApiOperation({ operationId: 'grantTokens', summary: "Add tokens to an organisation's balance" })
  @ApiUuidParam('org_id')
  @ApiIdempotencyKey('The same key grants once: a retry with the same body answers the first grant again, another body 409.')
  @ApiCreatedResponse({ type: TokenGrantView })
  @ApiErrors(400, 401, 404, 409)
  async grant(
    @UuidParam('org_id') orgId: string,
    @JsonBody() body: CreateTokenGrantRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<TokenGrantView> {
    const grant = await this.ledger.grant(orgId, body, readIdempotencyKey(idempotencyKey));
    return { entry: toTokenEntryView(grant.entry), balance: grant.balance };
  }

  @Get('api/v1/tokens/balance')
  @RequireScope('tokens:read')
  @ApiBearerAuth('apiKey')
  @ApiOperation({ operationId: 'getTokenBalance', summary: "The organisation's token balance" })
  @ApiOkResponse({ type: TokenBalanceView })
  @ApiErrors(400, 401, 403)
  async balance(@CurrentPrincipal() principal: Principal, @QueryParams() query: OrgScopedQuery): Promise<TokenBalanceView> {
    if (query.org_id) assertOwnOrg(principal, query.org_id);
    return { org_id: principal.orgId, balance: await this.ledger.balance(principal.orgId) };
  }

  @Get('api/v1/tokens/entries')
  @RequireScope('tokens:read')
  @ApiBearerAuth('apiKey')
  @ApiOperation({ operationId: 'listTokenEntries', summary: 'Ledger entries, newest first: grants, debits and refunds' })
  @ApiOkResponse({ type: TokenEntryList })
  @ApiErrors(400, 401, 403)
  async entries(@CurrentPrincipal() principal: Principal, @QueryParams() query: ListTokenEntriesQuery): Promise<TokenEntryList> {
    if (query.org_id) assertOwnOrg(principal, query.org_id);
    return toListResponse(await this.ledger.entries(principal.orgId, toPageRequest(query)), toTokenEntryView);
  }
}
