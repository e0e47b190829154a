import { Controller, Delete, Get, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ConversationsService, toAgentRunCreated } from '@pylon/agent-runs';
import type { Conversation } from '@pylon/db';
import type { ConversationItem } from '@pylon/agent-runs';
import { toListResponse, toPageRequest } from '../common/pagination.dto';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { RequireScope } from '../auth/access.decorators';
import { CurrentPrincipal, assertOwnOrg, type Principal } from '../auth/principal';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { ApiIdempotencyKey, readIdempotencyKey } from '../common/idempotency';
import { QueryParams } from '../common/query-params';
import { AgentRunCreated } from '../agent-runs/dto/agent-run.dto';
import {
  ConversationItemList,
  ConversationItemView,
  ConversationList,
  ConversationView,
  CreateConversationRequest,
  CreateConversationRunRequest,
  ListConversationItemsQuery,
  ListConversationsQuery,
} from './dto/conversation.dto';
import { JsonBody } from '../common/json-body';

@ApiTags('conversations')
@ApiBearerAuth('apiKey')
@Controller('api/v1/conversations')
export class ConversationsController {
  constructor(private readonly service: ConversationsService) {}

  @Post()
  @RequireScope('runs:create')
  @ApiOperation({ operationId: 'createConversation', summary: 'Start a conversation: its runs are turns that see the earlier ones' })
  @ApiIdempotencyKey('Same key and body return the same conversation; same key with another body is 409.')
  @ApiCreatedResponse({ type: ConversationView })
  @ApiErrors(400, 401, 403, 409)
  async create(
    @CurrentPrincipal() principal: Principal,
    @JsonBody() body: CreateConversationRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<ConversationView> {
    assertOwnOrg(principal, body.org_id);
    return toConversationView(await this.service.create(principal.orgId, body.metadata ?? {}, readIdempotencyKey(idempotencyKey)));
  }

  @Get()
  @RequireScope('runs:read')
  @ApiOperation({ operationId: 'listConversations', summary: 'List conversations, newest first' })
  @ApiOkResponse({ type: ConversationList })
  @ApiErrors(400, 401, 403)
  async list(@CurrentPrincipal() principal: Principal, @QueryParams() query: ListConversationsQuery): Promise<ConversationList> {
    if (query.org_id) assertOwnOrg(principal, query.org_id);
    return toListResponse(await this.service.list(principal.orgId, toPageRequest(query)), toConversationView);
  }

  @Get(':conversationId')
  @RequireScope('runs:read')
  @ApiOperation({ operationId: 'getConversation', summary: 'Get a conversation' })
  @ApiUuidParam('conversationId')
  @ApiOkResponse({ type: ConversationView })
  @ApiErrors(400, 401, 403, 404)
  async get(@CurrentPrincipal() principal: Principal, @UuidParam('conversationId') conversationId: string): Promise<ConversationView> {
    return toConversationView(await this.service.get(principal.orgId, conversationId));
  }

  @Delete(':conversationId')
  @HttpCode(204)
  @RequireScope('runs:create')
  @ApiOperation({ operationId: 'deleteConversation', summary: 'Delete a conversation and its items; its runs stay readable' })
  @ApiUuidParam('conversationId')
  @ApiNoContentResponse()
  @ApiErrors(400, 401, 403, 404)
  async delete(@CurrentPrincipal() principal: Principal, @UuidParam('conversationId') conversationId: string): Promise<void> {
    await this.service.delete(principal.orgId, conversationId);
  }

  @Post(':conversationId/runs')
  @HttpCode(200)
  @RequireScope('runs:create')
  @ApiOperation({
    operationId: 'createConversationRun',
    summary: "Take a turn: a run of the agent version that sees the conversation's earlier turns",
    description:
      'Answers like POST /api/v1/agent-runs and is admitted the same way (429 rate_limited with Retry-After when the key is over its rate or the backlog is full). 409 conversation_busy with if_busy "reject" while an earlier turn is not finished; 402 insufficient_tokens for a priced model and an empty balance.',
  })
  @ApiUuidParam('conversationId')
  @ApiIdempotencyKey('Same key and body return the same run; same key with another body is 409.')
  @ApiOkResponse({ type: AgentRunCreated })
  @ApiErrors(400, 401, 402, 403, 404, 409)
  async createRun(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('conversationId') conversationId: string,
    @JsonBody() body: CreateConversationRunRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<AgentRunCreated> {
    assertOwnOrg(principal, body.org_id);
    const run = await this.service.startTurn(
      principal.orgId,
      conversationId,
      { agent_version_id: body.agent_version_id, input: body.input },
      body.if_busy ?? 'enqueue',
      readIdempotencyKey(idempotencyKey),
    );
    return toAgentRunCreated(run);
  }

  @Get(':conversationId/items')
  @RequireScope('runs:read')
  @ApiOperation({
    operationId: 'listConversationItems',
    summary: 'Every input, answer, tool call and tool output of the conversation, in order',
    description: "Turn by turn, in the order turns were accepted, and each turn's items in the order they happened.",
  })
  @ApiUuidParam('conversationId')
  @ApiOkResponse({ type: ConversationItemList })
  @ApiErrors(400, 401, 403, 404)
  async items(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('conversationId') conversationId: string,
    @QueryParams() query: ListConversationItemsQuery,
  ): Promise<ConversationItemList> {
    return toListResponse(await this.service.items(principal.orgId, conversationId, query.cursor, query.limit ?? 20), toItemView);
  }
}

function toConversationView(conversation: Conversation): ConversationView {
  return {
    conversation_id: conversation.id,
    org_id: conversation.orgId,
    metadata: conversation.metadata,
    created_at: conversation.createdAt.toISOString(),
  };
}

function toItemView(item: ConversationItem): ConversationItemView {
  const field = (name: string) => (typeof item.data[name] === 'string' ? (item.data[name] as string) : null);
  return {
    item_id: item.id,
    type: item.type,
    run_id: item.runId,
    text: field('text'),
    call_id: field('call_id'),
    name: field('name'),
    arguments: field('arguments'),
    output: field('output'),
    created_at: item.createdAt.toISOString(),
  };
}
