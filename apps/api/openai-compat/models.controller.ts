import { Controller, Get, Param } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ModelsService, type ModelObject } from '@pylon/openai-compat';
import { RequireScope } from '../auth/access.decorators';
import { CurrentPrincipal, type Principal } from '../auth/principal';

/** OpenAI's `/v1/models`: what `/v1/responses` can name (the organisation's agents and agent versions). */
@ApiExcludeController()
@Controller('v1/models')
@RequireScope('agents:manage')
export class ModelsController {
  constructor(private readonly models: ModelsService) {}

  @Get()
  async list(@CurrentPrincipal() principal: Principal): Promise<{ object: 'list'; data: ModelObject[] }> {
    return { object: 'list', data: await this.models.list(principal.orgId) };
  }

  @Get(':modelId')
  get(@CurrentPrincipal() principal: Principal, @Param('modelId') modelId: string): Promise<ModelObject> {
    return this.models.get(principal.orgId, modelId);
  }
}
