import { Controller, Get, Headers, HttpCode, Post, Put, Req, StreamableFile } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { PylonError, DOCUMENT_FILE_MEDIA_TYPES } from '@pylon/contracts';
import { KnowledgeFilesService, toDocumentView, type FileDocumentFields, type ReceivedFile } from '@pylon/knowledge';
import { RequireScope } from '../auth/access.decorators';
import { CurrentPrincipal, assertOwnOrg, type Principal } from '../auth/principal';
import { ApiIdempotencyKey, readIdempotencyKey } from '../common/idempotency';
import { TAKES_FILES } from '../common/multipart';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { ErrorBody } from '../common/error-body.dto';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { DocumentView } from './dto/knowledge.dto';
import { UPLOAD_FIELD_NAMES, UPLOAD_FILE_FORM_SCHEMA, UploadKnowledgeFileFields } from './dto/knowledge-files.dto';
import { readFileForm } from './upload-form';

@ApiTags('knowledge')
@ApiBearerAuth('apiKey')
@Controller('api/v1/knowledge')
export class KnowledgeFilesController {
  constructor(private readonly files: KnowledgeFilesService) {}

  @Post('files')
  @HttpCode(201)
  @RouteConfig(TAKES_FILES)
  @RequireScope('kb:write')
  @ApiOperation({
    operationId: 'uploadKnowledgeFile',
    summary: 'Add a document from a file (PDF, DOCX, HTML, Markdown, text); its text is extracted, chunked and made searchable in the background',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: UPLOAD_FILE_FORM_SCHEMA })
  @ApiIdempotencyKey('Same key, bytes and fields return the same document; others are 409.')
  @ApiCreatedResponse({ type: DocumentView })
  @ApiErrors(400, 401, 403, 409, 413)
  @ApiResponse({ status: 415, description: 'unsupported_media_type: the file is not PDF, DOCX, HTML, Markdown or UTF-8 text', type: ErrorBody })
  async upload(
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Headers('idempotency-key') idempotencyKeyHeader: string | undefined,
  ): Promise<DocumentView> {
    const idempotencyKey = readIdempotencyKey(idempotencyKeyHeader);
    const { file, fields } = await this.readForm(principal, request);
    return toDocumentView(await this.files.create(principal.orgId, file, fields, idempotencyKey));
  }

  @Put('documents/:doc_id/file')
  @HttpCode(202)
  @RouteConfig(TAKES_FILES)
  @RequireScope('kb:write')
  @ApiOperation({
    operationId: 'replaceKnowledgeFile',
    summary: 'Replace a document by a new file: a new revision, searchable once ready; until then search serves the previous one',
  })
  @ApiUuidParam('doc_id')
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: UPLOAD_FILE_FORM_SCHEMA })
  @ApiIdempotencyKey('Same key, bytes and fields answer the revision they made; others are 409.')
  @ApiAcceptedResponse({ type: DocumentView })
  @ApiErrors(400, 401, 403, 404, 409, 413)
  @ApiResponse({ status: 415, description: 'unsupported_media_type: the file is not PDF, DOCX, HTML, Markdown or UTF-8 text', type: ErrorBody })
  async replace(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('doc_id') docId: string,
    @Req() request: FastifyRequest,
    @Headers('idempotency-key') idempotencyKeyHeader: string | undefined,
  ): Promise<DocumentView> {
    const idempotencyKey = readIdempotencyKey(idempotencyKeyHeader);
    const { file, fields } = await this.readForm(principal, request);
    return toDocumentView(await this.files.replace(principal.orgId, docId, file, fields, idempotencyKey));
  }

  /** One file and its fields, validated. */
  private async readForm(principal: Principal, request: FastifyRequest): Promise<{ file: ReceivedFile; fields: FileDocumentFields }> {
    const form = await readFileForm(request, principal, this.files, { maxFiles: 1, fieldNames: UPLOAD_FIELD_NAMES });
    return { file: form.files[0]!, fields: form.fields };
  }

  @Get('documents/:doc_id/file')
  @RequireScope('kb:read')
  @ApiOperation({ operationId: 'downloadKnowledgeFile', summary: 'Download the original file a document was made from' })
  @ApiUuidParam('doc_id')
  @ApiOkResponse({
    description: 'The file as uploaded, with its media type; `Content-Disposition` gives its name.',
    content: Object.fromEntries(Object.values(DOCUMENT_FILE_MEDIA_TYPES).map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
  })
  @ApiErrors(400, 401, 403, 404)
  async download(@CurrentPrincipal() principal: Principal, @UuidParam('doc_id') docId: string): Promise<StreamableFile> {
    const original = await this.files.download(principal.orgId, docId);
    return new StreamableFile(original.stream, {
      type: original.mediaType,
      length: original.size,
      disposition: attachment(original.fileName),
    });
  }
}

/** `Content-Disposition: attachment` with the name as ASCII and, exactly, as UTF-8 (RFC 6266). */
function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
