import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { McpHeaderSecretsService } from '@pylon/agents';
import { ModelCredentialsService } from '@pylon/model-credentials';
import { OrganizationsService } from '@pylon/organizations';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { AdminOnly } from '../auth/access.decorators';
import { ResealSecretsView } from './dto/secrets.dto';

/** Key rotation of the secrets an organisation keeps (MCP servers' headers, its model-provider keys), with the admin token. */
@ApiTags('management')
@ApiBearerAuth('admin')
@AdminOnly()
@Controller('admin/v1/orgs/:org_id/secrets')
export class SecretsController {
  constructor(
    private readonly orgs: OrganizationsService,
    private readonly secrets: McpHeaderSecretsService,
    private readonly credentials: ModelCredentialsService,
  ) {}

  @Post('reseal')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'resealOrgSecrets',
    summary: "Seal an organisation's stored secrets again under SECRETS_KEY (after a key rotation; the old key must be in SECRETS_PREVIOUS_KEYS)",
  })
  @ApiUuidParam('org_id')
  @ApiOkResponse({ type: ResealSecretsView })
  @ApiErrors(401, 404)
  async reseal(@UuidParam('org_id') orgId: string): Promise<ResealSecretsView> {
    await this.orgs.require(orgId);
    const versions = await this.secrets.reseal(orgId);
    const credentials = await this.credentials.reseal(orgId);
    return {
      resealed_versions: versions.resealed,
      current_versions: versions.current,
      resealed_model_credentials: credentials.resealed,
      current_model_credentials: credentials.current,
    };
  }
}
