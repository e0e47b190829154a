import { Controller, Get, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PylonConfig } from '@pylon/config';
import { VideoGenerationsService, toGenerationView } from '@pylon/video';
import { ApiIdempotencyKey, readIdempotencyKey } from '../common/idempotency';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { RequireScope } from '../auth/access.decorators';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { CreateGenerationRequest, GetGenerationsQuery, VideoGenerationResponse } from './dto/video.dto';
import { NoBody } from '../common/no-body.guard';
import { QueryParams } from '../common/query-params';
import { JsonBody } from '../common/json-body';

const IDEMPOTENCY_HEADER = ApiIdempotencyKey('Same key and body return the first result and charge once; another body is 409.');

/** Video generation (4.4–4.6). Each generation or extension costs VIDEO_TOKEN_COST tokens (default 500 000). */
@ApiTags('video')
@ApiBearerAuth('apiKey')
@Controller('v1/video-gen')
export class VideoController {
  constructor(
    private readonly service: VideoGenerationsService,
    private readonly config: PylonConfig,
  ) {}

  @Post('generations')
  @HttpCode(201)
  @RequireScope('video:create')
  @ApiOperation({ operationId: 'createVideoGeneration', summary: 'Generate a video from a prompt (and optional start/end images)' })
  @IDEMPOTENCY_HEADER
  @ApiCreatedResponse({ type: VideoGenerationResponse })
  @ApiErrors(400, 401, 402, 403, 409)
  async create(
    @CurrentPrincipal() principal: Principal,
    @JsonBody() body: CreateGenerationRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<VideoGenerationResponse> {
    const generation = await this.service.create(principal.orgId, body, readIdempotencyKey(idempotencyKey));
    return toGenerationView(generation, this.config.publicUrl);
  }

  @Get('generation')
  @RequireScope('video:read')
  @ApiOperation({
    operationId: 'getVideoGenerations',
    summary: "The caller's generations with these ids, in request order; unknown ids are left out",
  })
  @ApiOkResponse({ type: [VideoGenerationResponse] })
  @ApiErrors(400, 401, 403)
  async getMany(@CurrentPrincipal() principal: Principal, @QueryParams() query: GetGenerationsQuery): Promise<VideoGenerationResponse[]> {
    const generations = await this.service.getMany(principal.orgId, query.ids);
    return generations.map((generation) => toGenerationView(generation, this.config.publicUrl));
  }

  @Post('generations/:taskId/extend')
  @HttpCode(201)
  @RequireScope('video:create')
  @ApiOperation({ operationId: 'extendVideoGeneration', summary: 'Extend a completed generation with a continuation' })
  @ApiUuidParam('taskId')
  @IDEMPOTENCY_HEADER
  @ApiCreatedResponse({ type: VideoGenerationResponse })
  @ApiErrors(400, 401, 402, 403, 404, 409)
  async extend(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('taskId') taskId: string,
    @JsonBody() body: CreateGenerationRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<VideoGenerationResponse> {
    const generation = await this.service.create(principal.orgId, body, readIdempotencyKey(idempotencyKey), taskId);
    return toGenerationView(generation, this.config.publicUrl);
  }

  @Post('generations/:taskId/cancel')
  @NoBody()
  @HttpCode(202)
  @RequireScope('video:create')
  @ApiOperation({
    operationId: 'cancelVideoGeneration',
    summary:
      'Stop a pending or processing generation: the render or provider job stops, it fails with reason "cancelled" and its tokens are refunded once',
  })
  @ApiUuidParam('taskId')
  @ApiAcceptedResponse({ type: VideoGenerationResponse })
  @ApiErrors(400, 401, 403, 404, 409)
  async cancel(@CurrentPrincipal() principal: Principal, @UuidParam('taskId') taskId: string): Promise<VideoGenerationResponse> {
    return toGenerationView(await this.service.cancel(principal.orgId, taskId), this.config.publicUrl);
  }
}
