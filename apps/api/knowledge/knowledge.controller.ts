import { Controller, Delete, Get, Headers, HttpCode, Post, Put } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ChunkMatch, ChunkQueryMatch } from '@pylon/knowledge';
import { KnowledgeBasesService, KnowledgeSearchService, parseSearchFilter, toDocumentView, KnowledgeDocumentsService } from '@pylon/knowledge';
import { readIdempotencyKey, ApiIdempotencyKey } from '../common/idempotency';
import { toListResponse, toPageRequest } from '../common/pagination.dto';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { RequireScope } from '../auth/access.decorators';
import { CurrentPrincipal, assertOwnOrg, type Principal } from '../auth/principal';
import { ApiErrors } from '../openapi/api-errors.decorator';
import {
  CreateDocumentRequest,
  DocumentList,
  DocumentView,
  KnowledgeMatch,
  KnowledgeQueryMatch,
  KnowledgeQueryRequest,
  KnowledgeQueryResponse,
  KnowledgeSearchRequest,
  KnowledgeSearchResponse,
  ListDocumentsQuery,
  ReplaceDocumentRequest,
  QUERY_DEFAULT_MATCH_COUNT,
} from './dto/knowledge.dto';
import { QueryParams } from '../common/query-params';
import { JsonBody } from '../common/json-body';

const DEFAULT_MATCH_COUNT = 6;

@ApiTags('knowledge')
@ApiBearerAuth('apiKey')
@Controller('api/v1/knowledge')
export class KnowledgeController {
  constructor(
    private readonly service: KnowledgeDocumentsService,
    private readonly search: KnowledgeSearchService,
    private readonly bases: KnowledgeBasesService,
  ) {}

  @Post('search')
  @HttpCode(200)
  @RequireScope('kb:read')
  @ApiOperation({ operationId: 'knowledgeSearch', summary: "The organisation's best-matching knowledge chunks, ranked by cosine similarity" })
  @ApiOkResponse({ type: KnowledgeSearchResponse })
  @ApiErrors(400, 401, 403)
  async knowledgeSearch(@CurrentPrincipal() principal: Principal, @JsonBody() body: KnowledgeSearchRequest): Promise<KnowledgeSearchResponse> {
    assertOwnOrg(principal, body.org_id);
    const matches = await this.search.search(principal.orgId, body.query, body.match_count ?? DEFAULT_MATCH_COUNT);
    return { matches: matches.map(toMatchView) };
  }

  @Post('query')
  @HttpCode(200)
  @RequireScope('kb:read')
  @ApiOperation({
    operationId: 'knowledgeQuery',
    summary: "Vector, keyword or hybrid search of the organisation's knowledge, filtered on document title and metadata",
  })
  @ApiOkResponse({ type: KnowledgeQueryResponse })
  @ApiErrors(400, 401, 403)
  async knowledgeQuery(@CurrentPrincipal() principal: Principal, @JsonBody() body: KnowledgeQueryRequest): Promise<KnowledgeQueryResponse> {
    assertOwnOrg(principal, body.org_id);
    const knowledgeBaseIds = body.knowledge_base_ids && [...new Set(body.knowledge_base_ids)];
    if (knowledgeBaseIds) await this.bases.assertExist(principal.orgId, knowledgeBaseIds, 'knowledge_base_ids');
    const matches = await this.search.query(principal.orgId, {
      query: body.query,
      matchCount: body.match_count ?? QUERY_DEFAULT_MATCH_COUNT,
      mode: body.mode ?? 'hybrid',
      filter: body.filters === undefined ? undefined : parseSearchFilter(body.filters),
      scoreThreshold: body.score_threshold,
      knowledgeBaseIds,
    });
    return { matches: matches.map(toQueryMatchView) };
  }

  @Post('documents')
  @HttpCode(202)
  @RequireScope('kb:write')
  @ApiOperation({ operationId: 'createKnowledgeDocument', summary: 'Add a document; it is chunked, embedded and made searchable in the background' })
  @ApiIdempotencyKey('Same key and body return the same document; another body is 409.')
  @ApiAcceptedResponse({ type: DocumentView })
  @ApiErrors(400, 401, 403, 409, 413)
  async create(
    @CurrentPrincipal() principal: Principal,
    @JsonBody() body: CreateDocumentRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<DocumentView> {
    assertOwnOrg(principal, body.org_id);
    return toDocumentView(await this.service.create(principal.orgId, body, readIdempotencyKey(idempotencyKey)));
  }

  @Get('documents')
  @RequireScope('kb:read')
  @ApiOperation({ operationId: 'listKnowledgeDocuments', summary: 'List documents, newest first, optionally by status and knowledge base' })
  @ApiOkResponse({ type: DocumentList })
  @ApiErrors(400, 401, 403)
  async list(@CurrentPrincipal() principal: Principal, @QueryParams() query: ListDocumentsQuery): Promise<DocumentList> {
    if (query.org_id) assertOwnOrg(principal, query.org_id);
    return toListResponse(await this.service.list(principal.orgId, query.status, toPageRequest(query), query.knowledge_base_id), (view) => view);
  }

  @Get('documents/:doc_id')
  @RequireScope('kb:read')
  @ApiOperation({ operationId: 'getKnowledgeDocument', summary: 'Get a document and its ingestion status' })
  @ApiUuidParam('doc_id')
  @ApiOkResponse({ type: DocumentView })
  @ApiErrors(400, 401, 403, 404)
  async get(@CurrentPrincipal() principal: Principal, @UuidParam('doc_id') docId: string): Promise<DocumentView> {
    return this.service.get(principal.orgId, docId);
  }

  @Put('documents/:doc_id')
  @HttpCode(202)
  @RequireScope('kb:write')
  @ApiOperation({
    operationId: 'replaceKnowledgeDocument',
    summary: 'Replace a document by a new revision; search serves the previous one until the new one is ready',
    description:
      'The document gets revision n+1 and is `processing` (its `status` and `failure_reason` describe the latest revision). ' +
      'Search keeps answering from `ready_revision` until the new revision is chunked and embedded, then swaps the chunks in one transaction. ' +
      'A failed revision leaves the previous one searchable. Of concurrent replacements, the last accepted (highest `revision`) wins. ' +
      'When the workflow engine is unavailable: 500 `orchestrator_unavailable` and the document is not changed (retry with the same Idempotency-Key).',
  })
  @ApiUuidParam('doc_id')
  @ApiIdempotencyKey('Same key and body return the document without another revision; another body is 409.')
  @ApiAcceptedResponse({ type: DocumentView })
  @ApiErrors(400, 401, 403, 404, 409, 413)
  async replace(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('doc_id') docId: string,
    @JsonBody() body: ReplaceDocumentRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<DocumentView> {
    assertOwnOrg(principal, body.org_id);
    const { content, title, metadata } = body;
    return toDocumentView(await this.service.replace(principal.orgId, docId, { content, title, metadata }, readIdempotencyKey(idempotencyKey)));
  }

  @Delete('documents/:doc_id')
  @HttpCode(204)
  @RequireScope('kb:write')
  @ApiOperation({ operationId: 'deleteKnowledgeDocument', summary: 'Delete a document; its chunks stop matching at once' })
  @ApiUuidParam('doc_id')
  @ApiNoContentResponse()
  @ApiErrors(400, 401, 403, 404)
  async delete(@CurrentPrincipal() principal: Principal, @UuidParam('doc_id') docId: string): Promise<void> {
    await this.service.delete(principal.orgId, docId);
  }
}

function toMatchView(match: ChunkMatch): KnowledgeMatch {
  return {
    chunk_id: match.chunkId,
    doc_id: match.docId,
    content: match.content,
    score: match.score,
    title: match.title,
    chunk_index: match.chunkIndex,
    metadata: match.metadata,
    page_start: match.pageStart,
    page_end: match.pageEnd,
  };
}

function toQueryMatchView(match: ChunkQueryMatch): KnowledgeQueryMatch {
  return {
    ...toMatchView(match),
    knowledge_base_id: match.knowledgeBaseId,
    found_by: match.foundBy,
    vector_rank: match.vectorRank,
    vector_similarity: match.vectorSimilarity,
    keyword_rank: match.keywordRank,
    keyword_score: match.keywordScore,
  };
}
