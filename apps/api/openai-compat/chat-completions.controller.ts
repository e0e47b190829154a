import { Controller, Headers, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PylonConfig } from '@pylon/config';
import { ChatCompletionsService, parseChatCompletionRequest, type ChatCompletion } from '@pylon/openai-compat';
import { RequireScope } from '../auth/access.decorators';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import { readIdempotencyKey } from '../common/idempotency';
import { ServerSentEventStream } from '../common/server-sent-events';
import { clientGone } from './client-gone';

/** OpenAI's Chat Completions at `/v1/chat/completions`, for the clients that speak only it: each completion is a run of an agent version. */
@ApiExcludeController()
@Controller('v1/chat/completions')
export class ChatCompletionsController {
  constructor(
    private readonly completions: ChatCompletionsService,
    private readonly config: PylonConfig,
  ) {}

  @Post()
  @HttpCode(200)
  @RequireScope('runs:create')
  async create(
    @CurrentPrincipal() principal: Principal,
    @Headers('idempotency-key') idempotencyKeyHeader: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ChatCompletion | void> {
    // The body is read as OpenAI's parameters, each refused by name (chat-request.ts), not as a Pylon DTO.
    const asked = parseChatCompletionRequest(request.body);
    const started = await this.completions.start(principal.orgId, asked, readIdempotencyKey(idempotencyKeyHeader));
    const gone = clientGone(request, reply);
    if (!asked.response.stream) return this.completions.complete(principal.orgId, started, gone);
    reply.hijack();
    const sse = new ServerSentEventStream(reply.raw);
    sse.open(reply.getHeaders() as Record<string, string>, this.config.runEventsHeartbeatSeconds);
    try {
      await this.completions.stream(principal.orgId, started, asked.includeUsage, gone, (chunk) => sse.sendData(JSON.stringify(chunk)));
      await sse.sendData('[DONE]');
    } catch (error) {
      if (!gone.aborted) request.log.warn({ err: error }, `the stream of completion ${started.run.id} stopped`);
    } finally {
      sse.close();
    }
  }
}
