import { Controller, Get, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiAcceptedResponse, ApiBearerAuth, ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { MAX_BATCH_DOCUMENTS } from '@pylon/contracts';
import { KnowledgeBatchesService, KnowledgeFilesService } from '@pylon/knowledge';
import { RequireScope } from '../auth/access.decorators';
import { CurrentPrincipal, assertOwnOrg, type Principal } from '../auth/principal';
import { ErrorBody } from '../common/error-body.dto';
import { ApiIdempotencyKey, readIdempotencyKey } from '../common/idempotency';
import { validJsonBody } from '../common/json-body';
import { TAKES_FILES } from '../common/multipart';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { BATCH_FIELD_NAMES, CreateKnowledgeBatchRequest, KnowledgeBatchView } from './dto/knowledge-batches.dto';
import { readFileForm } from './upload-form';

@ApiTags('knowledge')
@ApiBearerAuth('apiKey')
@Controller('api/v1/knowledge/batches')
export class KnowledgeBatchesController {
  constructor(
    private readonly batches: KnowledgeBatchesService,
    private readonly files: KnowledgeFilesService,
  ) {}

  @Post()
  @HttpCode(202)
  @RouteConfig(TAKES_FILES)
  @RequireScope('kb:write')
  @ApiOperation({
    operationId: 'createKnowledgeBatch',
    summary: `Add up to ${MAX_BATCH_DOCUMENTS} documents at once, as files (multipart/form-data) or texts (JSON); all are accepted or none`,
  })
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiBody({ type: CreateKnowledgeBatchRequest })
  @ApiIdempotencyKey('Same key and documents return the same batch; others are 409.')
  @ApiAcceptedResponse({ type: KnowledgeBatchView })
  @ApiErrors(400, 401, 403, 409, 413)
  @ApiResponse({ status: 415, description: 'unsupported_media_type: a file is not PDF, DOCX, HTML, Markdown or UTF-8 text', type: ErrorBody })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Headers('idempotency-key') idempotencyKeyHeader: string | undefined,
  ): Promise<KnowledgeBatchView> {
    const idempotencyKey = readIdempotencyKey(idempotencyKeyHeader);
    if (!request.isMultipart()) {
      const body = await validJsonBody(request.body, CreateKnowledgeBatchRequest);
      assertOwnOrg(principal, body.org_id);
      return this.batches.createFromTexts(principal.orgId, body.knowledge_base_id, body.documents, idempotencyKey);
    }
    const form = await readFileForm(request, principal, this.files, { maxFiles: MAX_BATCH_DOCUMENTS, fieldNames: BATCH_FIELD_NAMES });
    return this.batches.createFromFiles(principal.orgId, form.files, form.fields, idempotencyKey);
  }

  @Get(':batch_id')
  @RequireScope('kb:read')
  @ApiOperation({ operationId: 'getKnowledgeBatch', summary: "A batch's progress: its documents counted by status, and listed" })
  @ApiUuidParam('batch_id')
  @ApiOkResponse({ type: KnowledgeBatchView })
  @ApiErrors(400, 401, 403, 404)
  get(@CurrentPrincipal() principal: Principal, @UuidParam('batch_id') batchId: string): Promise<KnowledgeBatchView> {
    return this.batches.get(principal.orgId, batchId);
  }

  @Post(':batch_id/cancel')
  @HttpCode(200)
  @RequireScope('kb:write')
  @ApiOperation({
    operationId: 'cancelKnowledgeBatch',
    summary: 'Stop a batch: documents not yet begun end failed, those being ingested finish; an ended batch stays as it is',
  })
  @ApiUuidParam('batch_id')
  @ApiOkResponse({ type: KnowledgeBatchView })
  @ApiErrors(400, 401, 403, 404)
  cancel(@CurrentPrincipal() principal: Principal, @UuidParam('batch_id') batchId: string): Promise<KnowledgeBatchView> {
    return this.batches.cancel(principal.orgId, batchId);
  }
}
