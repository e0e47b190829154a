import { Controller, Get, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PylonError } from '@pylon/contracts';
import { ModelPricesService } from '@pylon/ledger';
import type { ModelPrice } from '@pylon/ledger';
import { OrganizationsService } from '@pylon/organizations';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { AdminOnly } from '../auth/access.decorators';
import { ModelPricesView, ReplaceModelPricesRequest, type ModelPriceEntry } from './dto/model-prices.dto';
import { JsonBody } from '../common/json-body';

/** Operators' prices of model turns for one organisation, with the admin token. */
@ApiTags('management')
@ApiBearerAuth('admin')
@AdminOnly()
@Controller('admin/v1/orgs/:org_id/model-prices')
export class ModelPricesController {
  constructor(
    private readonly orgs: OrganizationsService,
    private readonly prices: ModelPricesService,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'getOrgModelPrices', summary: "An organisation's own model prices, and the configured ones" })
  @ApiUuidParam('org_id')
  @ApiOkResponse({ type: ModelPricesView })
  @ApiErrors(400, 401, 404)
  async get(@UuidParam('org_id') orgId: string): Promise<ModelPricesView> {
    await this.orgs.require(orgId);
    return toView(orgId, await this.prices.list(orgId));
  }

  @Put()
  @ApiOperation({
    operationId: 'replaceOrgModelPrices',
    summary: "Replace an organisation's own model prices (service tokens per 1 000 input and output tokens)",
    description: 'The next model turn of every run of the organisation is charged at these prices. A model listed twice is 400.',
  })
  @ApiUuidParam('org_id')
  @ApiOkResponse({ type: ModelPricesView })
  @ApiErrors(400, 401, 404)
  async replace(@UuidParam('org_id') orgId: string, @JsonBody() body: ReplaceModelPricesRequest): Promise<ModelPricesView> {
    await this.orgs.require(orgId);
    const models = body.prices.map((price) => price.model);
    const repeated = models.find((model, index) => models.indexOf(model) !== index);
    if (repeated) throw PylonError.invalidRequest(`prices: ${repeated} is listed twice`);
    await this.prices.replace(
      orgId,
      body.prices.map((price) => ({ model: price.model, inputPer1k: price.input_per_1k_tokens, outputPer1k: price.output_per_1k_tokens })),
    );
    return toView(orgId, await this.prices.list(orgId));
  }
}

function toEntry(price: ModelPrice): ModelPriceEntry {
  return { model: price.model, input_per_1k_tokens: price.inputPer1k, output_per_1k_tokens: price.outputPer1k };
}

function toView(orgId: string, prices: { organisation: ModelPrice[]; configured: ModelPrice[] }): ModelPricesView {
  return { org_id: orgId, organisation: prices.organisation.map(toEntry), configured: prices.configured.map(toEntry) };
}
