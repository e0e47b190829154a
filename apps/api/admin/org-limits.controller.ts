import { Controller, Get, Patch } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OrganizationsService } from '@pylon/organizations';
import { LimitsService } from '@pylon/limits';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { AdminOnly } from '../auth/access.decorators';
import { OrgLimitsView, UpdateOrgLimitsRequest } from './dto/org-limits.dto';
import { toOrgLimitsView } from './views';
import { JsonBody } from '../common/json-body';

/** Operators' view and overrides of an organisation's caps, with the admin token. */
@ApiTags('management')
@ApiBearerAuth('admin')
@AdminOnly()
@Controller('admin/v1/orgs/:org_id/limits')
export class OrgLimitsController {
  constructor(
    private readonly orgs: OrganizationsService,
    private readonly limits: LimitsService,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'getOrgLimits', summary: "An organisation's caps in effect, and which are its own overrides" })
  @ApiUuidParam('org_id')
  @ApiOkResponse({ type: OrgLimitsView })
  @ApiErrors(400, 401, 404)
  async get(@UuidParam('org_id') orgId: string): Promise<OrgLimitsView> {
    await this.requireOrg(orgId);
    return toOrgLimitsView(await this.limits.forOrg(orgId));
  }

  @Patch()
  @ApiOperation({ operationId: 'updateOrgLimits', summary: "Override an organisation's caps (null: back to the configured default)" })
  @ApiUuidParam('org_id')
  @ApiOkResponse({ type: OrgLimitsView })
  @ApiErrors(400, 401, 404)
  async update(@UuidParam('org_id') orgId: string, @JsonBody() body: UpdateOrgLimitsRequest): Promise<OrgLimitsView> {
    await this.requireOrg(orgId);
    const updated = await this.limits.updateOrg(orgId, {
      webhookEndpoints: body.webhook_endpoints,
      testEventsPerMinute: body.test_events_per_minute,
      inflightDeliveriesPerEndpoint: body.inflight_deliveries_per_endpoint,
      dispatchWeight: body.dispatch_weight,
      queuedRuns: body.queued_runs,
      queuedDocuments: body.queued_documents,
    });
    return toOrgLimitsView(updated);
  }

  private async requireOrg(orgId: string): Promise<void> {
    await this.orgs.require(orgId);
  }
}
