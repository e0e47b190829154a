import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { AdminOnly } from '../auth/access.decorators';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { DisableWebhookEndpointsRequest, DisabledWebhookEndpointsView } from './dto/webhooks.dto';
import { WebhookEndpointsService } from '@pylon/webhooks';
import { JsonBody } from '../common/json-body';

/** Operators' controls over an organisation's webhooks, with the admin token. */
@ApiTags('management')
@ApiBearerAuth('admin')
@AdminOnly()
@Controller('admin/v1')
export class AdminWebhooksController {
  constructor(private readonly service: WebhookEndpointsService) {}

  @Post('orgs/:org_id/webhook-endpoints/disable')
  @HttpCode(200)
  @ApiOperation({ operationId: 'disableOrgWebhookEndpoints', summary: "Disable all of an organisation's webhook endpoints at once" })
  @ApiUuidParam('org_id')
  @ApiOkResponse({ type: DisabledWebhookEndpointsView })
  @ApiErrors(400, 401, 404)
  async disableAll(@UuidParam('org_id') orgId: string, @JsonBody() body: DisableWebhookEndpointsRequest): Promise<DisabledWebhookEndpointsView> {
    return { disabled: await this.service.disableAllOfOrg(orgId, body.reason ?? undefined) };
  }
}
