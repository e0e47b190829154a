import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PylonError, ErrorCode } from '@pylon/contracts';
import { ApiKeyService } from '@pylon/api-keys';
import { AnyApiKey } from '../auth/access.decorators';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { ApiKeyView } from '../admin/dto/create-api-key.dto';
import { toApiKeyView } from '../admin/views';

/** The calling key itself, for any key: a client (the console) learns its organisation and scopes from it. */
@ApiTags('api keys')
@ApiBearerAuth('apiKey')
@Controller('api/v1/whoami')
export class WhoAmIController {
  constructor(private readonly keys: ApiKeyService) {}

  @Get()
  @AnyApiKey()
  @ApiOperation({
    operationId: 'whoAmI',
    summary: 'The calling API key (no secret): its organisation, name and scopes, so a client can offer what the key allows. Needs no scope',
  })
  @ApiOkResponse({ type: ApiKeyView })
  @ApiErrors(401)
  async whoAmI(@CurrentPrincipal() principal: Principal): Promise<ApiKeyView> {
    const key = await this.keys.findInOrg(principal.orgId, principal.keyId);
    if (!key) throw new PylonError(ErrorCode.InvalidApiKey, 'unknown API key');
    return toApiKeyView(key);
  }
}
