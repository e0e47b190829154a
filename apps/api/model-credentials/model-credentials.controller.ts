import { Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ModelCredentialsService, type ModelCredential } from '@pylon/model-credentials';
import { RequireScope } from '../auth/access.decorators';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import { JsonBody } from '../common/json-body';
import { NoBody } from '../common/no-body.guard';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { ModelCredentialCheckView, ModelCredentialList, ModelCredentialView, PutModelCredentialRequest } from './dto/model-credentials.dto';

const ProviderParam = () => ApiParam({ name: 'provider', required: true, schema: { type: 'string', example: 'anthropic' } });

/** The organisation's own model-provider keys: its runs on that provider use them instead of the server's. Scope `*`. */
@ApiTags('management')
@ApiBearerAuth('apiKey')
@RequireScope('*')
@Controller('api/v1/model-credentials')
export class ModelCredentialsController {
  constructor(private readonly credentials: ModelCredentialsService) {}

  @Get()
  @ApiOperation({ operationId: 'listModelCredentials', summary: "The organisation's own provider keys, masked" })
  @ApiOkResponse({ type: ModelCredentialList })
  @ApiErrors(401, 403)
  async list(@CurrentPrincipal() principal: Principal): Promise<ModelCredentialList> {
    return { data: (await this.credentials.list(principal.orgId)).map(toView) };
  }

  @Put(':provider')
  @ApiOperation({
    operationId: 'putModelCredential',
    summary: "Set the organisation's key for a provider (replacing the one it had)",
    description:
      "From the next model turn on, the organisation's runs on this provider use this key; the server's prices (MODEL_PRICES) do not apply to them. The key is sealed at rest; answers show it masked.",
  })
  @ProviderParam()
  @ApiOkResponse({ type: ModelCredentialView })
  @ApiErrors(400, 401, 403, 404)
  async put(
    @CurrentPrincipal() principal: Principal,
    @Param('provider') provider: string,
    @JsonBody() body: PutModelCredentialRequest,
  ): Promise<ModelCredentialView> {
    return toView(await this.credentials.put(principal.orgId, provider, body.api_key));
  }

  @Delete(':provider')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteModelCredential',
    summary: "Remove the organisation's key for a provider: its runs go back to the server's key, if it shares one",
  })
  @ProviderParam()
  @ApiNoContentResponse({ description: 'Removed.' })
  @ApiErrors(400, 401, 403, 404)
  async remove(@CurrentPrincipal() principal: Principal, @Param('provider') provider: string): Promise<void> {
    await this.credentials.remove(principal.orgId, provider);
  }

  @Post(':provider/check')
  @HttpCode(200)
  @NoBody()
  @ApiOperation({ operationId: 'checkModelCredential', summary: "Check the organisation's key with one minimal call to the provider" })
  @ProviderParam()
  @ApiOkResponse({ type: ModelCredentialCheckView })
  @ApiErrors(400, 401, 403, 404)
  check(@CurrentPrincipal() principal: Principal, @Param('provider') provider: string): Promise<ModelCredentialCheckView> {
    return this.credentials.check(principal.orgId, provider);
  }
}

function toView(credential: ModelCredential): ModelCredentialView {
  return { provider: credential.provider, api_key: credential.apiKeyHint, created_at: credential.createdAt, updated_at: credential.updatedAt };
}
