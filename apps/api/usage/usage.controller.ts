import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { UsageService } from '@pylon/usage';
import { AnyApiKey } from '../auth/access.decorators';
import { CurrentPrincipal, assertOwnOrg, type Principal } from '../auth/principal';
import { QueryParams } from '../common/query-params';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { OrgScopedQuery } from '../tokens/dto/tokens.dto';
import { UsageView } from './dto/usage.dto';

@ApiTags('management')
@Controller()
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get('api/v1/usage')
  @AnyApiKey()
  @ApiBearerAuth('apiKey')
  @ApiOperation({
    operationId: 'getUsage',
    summary:
      "What happened in the organisation over the last 24 hours and 30 days: runs, documents, videos, webhook deliveries, tokens, failures and each key's requests",
    description:
      "Any key of the organisation may ask; each section is present only when the key has its scope (runs: `runs:read`, documents: `kb:read`, videos: `video:read`, deliveries and failing_endpoints: `webhooks:manage`, tokens: `tokens:read`, api_keys: `keys:manage`), so it shows nothing the key could not read otherwise. A key's request counts are written by each API process every API_KEY_USAGE_FLUSH_MS (5 s by default).",
  })
  @ApiOkResponse({ type: UsageView })
  @ApiErrors(400, 401, 403)
  report(@CurrentPrincipal() principal: Principal, @QueryParams() query: OrgScopedQuery): Promise<UsageView> {
    if (query.org_id) assertOwnOrg(principal, query.org_id);
    return this.usage.report(principal.orgId, principal.scopes);
  }
}
