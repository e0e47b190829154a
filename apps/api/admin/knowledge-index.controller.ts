import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OrganizationsService } from '@pylon/organizations';
import { KnowledgeVectorIndexService, type VectorSearchState } from '@pylon/knowledge';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { AdminOnly } from '../auth/access.decorators';
import { KnowledgeIndexView } from './dto/knowledge-index.dto';

function toKnowledgeIndexView(orgId: string, state: VectorSearchState): KnowledgeIndexView {
  const { index } = state;
  return {
    org_id: orgId,
    chunks: state.chunks,
    exact_search_max_chunks: state.exactSearchMaxChunks,
    searched_by: state.searchedBy,
    index: index && {
      name: index.indexName,
      status: index.status,
      chunks_at_start: index.chunksAtStart,
      build_ms: index.buildMs,
      error: index.error,
      updated_at: index.updatedAt.toISOString(),
    },
  };
}

/** Operators' view of how an organisation's knowledge is searched: exactly, or through its own index (and how that build went). */
@ApiTags('management')
@ApiBearerAuth('admin')
@AdminOnly()
@Controller('admin/v1/orgs/:org_id/knowledge-index')
export class KnowledgeIndexController {
  constructor(
    private readonly orgs: OrganizationsService,
    private readonly vectorIndexes: KnowledgeVectorIndexService,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'getOrgKnowledgeIndex',
    summary: "How an organisation's knowledge is searched, and the state of its own vector index",
  })
  @ApiUuidParam('org_id')
  @ApiOkResponse({ type: KnowledgeIndexView })
  @ApiErrors(400, 401, 404)
  async get(@UuidParam('org_id') orgId: string): Promise<KnowledgeIndexView> {
    await this.orgs.require(orgId);
    return toKnowledgeIndexView(orgId, await this.vectorIndexes.state(orgId));
  }
}
