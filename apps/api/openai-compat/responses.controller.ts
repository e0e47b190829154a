import { Controller, Get, Headers, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PylonConfig } from '@pylon/config';
import { parseResponseRequest, ResponsesService, type InputItemList, type ResponseObject, type StartedResponse } from '@pylon/openai-compat';
import { RequireScope } from '../auth/access.decorators';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import { readIdempotencyKey } from '../common/idempotency';
import { QueryParams } from '../common/query-params';
import { ServerSentEventStream } from '../common/server-sent-events';
import { clientGone } from './client-gone';
import { InputItemsQuery, RetrieveResponseQuery } from './dto/responses.dto';

/**
 * OpenAI's Responses API (the Open Responses specification) at `/v1/responses`, for the clients that speak it:
 * each response is a run of an agent version. Its errors are OpenAI's `{"error": {message, type, param, code}}`
 * (ErrorFilter), and it is described by that specification rather than by Pylon's OpenAPI document.
 */
@ApiExcludeController()
@Controller('v1/responses')
export class ResponsesController {
  constructor(
    private readonly responses: ResponsesService,
    private readonly config: PylonConfig,
  ) {}

  /** `background`: answered at once, queued; `stream`: its semantic events as Server-Sent Events; otherwise the response once it ended. */
  @Post()
  @HttpCode(200)
  @RequireScope('runs:create')
  async create(
    @CurrentPrincipal() principal: Principal,
    @Headers('idempotency-key') idempotencyKeyHeader: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ResponseObject | void> {
    // The body is read as OpenAI's parameters, each refused by name (response-request.ts), not as a Pylon DTO.
    const asked = parseResponseRequest(request.body);
    const started = await this.responses.create(principal.orgId, asked, readIdempotencyKey(idempotencyKeyHeader));
    if (asked.stream) return this.sendStream(principal.orgId, started, request, reply, -1);
    if (asked.background) return this.responses.get(principal.orgId, started.run.id);
    return this.responses.finished(principal.orgId, started, clientGone(request, reply));
  }

  /** The object; with `stream=true` its semantic stream again, from its start or after `starting_after`. */
  @Get(':responseId')
  @RequireScope('runs:read')
  async retrieve(
    @CurrentPrincipal() principal: Principal,
    @Param('responseId') responseId: string,
    @QueryParams() query: RetrieveResponseQuery,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ResponseObject | void> {
    if (!query.stream) return this.responses.get(principal.orgId, responseId);
    const run = await this.responses.find(principal.orgId, responseId);
    await this.sendStream(principal.orgId, { run, after: 0, continuing: false }, request, reply, query.starting_after ?? -1);
  }

  @Get(':responseId/input_items')
  @RequireScope('runs:read')
  inputItems(
    @CurrentPrincipal() principal: Principal,
    @Param('responseId') responseId: string,
    @QueryParams() _query: InputItemsQuery,
  ): Promise<InputItemList> {
    return this.responses.inputItems(principal.orgId, responseId);
  }

  @Post(':responseId/cancel')
  @HttpCode(200)
  @RequireScope('runs:create')
  cancel(@CurrentPrincipal() principal: Principal, @Param('responseId') responseId: string): Promise<ResponseObject> {
    return this.responses.cancel(principal.orgId, responseId);
  }

  private async sendStream(
    orgId: string,
    started: StartedResponse,
    request: FastifyRequest,
    reply: FastifyReply,
    startingAfter: number,
  ): Promise<void> {
    const { run } = started;
    const gone = clientGone(request, reply);
    reply.hijack();
    const sse = new ServerSentEventStream(reply.raw);
    sse.open(reply.getHeaders() as Record<string, string>, this.config.runEventsHeartbeatSeconds);
    try {
      await this.responses.stream(
        orgId,
        started,
        gone,
        (event) => sse.send({ id: String(event.sequence_number), event: event.type, data: event }),
        startingAfter,
      );
    } catch (error) {
      if (!gone.aborted) request.log.warn({ err: error }, `the stream of response ${run.id} stopped`);
    } finally {
      sse.close();
    }
  }
}
