import { Controller, Get, Headers, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import { PylonError } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { RunEventsService, type RunEventStream } from '@pylon/agent-runs';
import { LimitsService } from '@pylon/limits';
import type { StoredRunEvent } from '@pylon/agent-runs';
import { RequireScope } from '../auth/access.decorators';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import { ServerSentEventStream } from '../common/server-sent-events';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { RunEventPage, RunEventsQuery, type RunEventView } from './dto/run-event.dto';
import { QueryParams } from '../common/query-params';

const DEFAULT_PAGE = 100;

function toView(event: StoredRunEvent): RunEventView {
  return { seq: event.seq, type: event.type, data: event.data, created_at: event.createdAt.toISOString() };
}

/** What `events` answers with; the first is taken when Accept prefers neither (or is absent). */
const EVENT_MEDIA_TYPES = ['application/json', 'text/event-stream'];

/** Whether the client asked for the stream: Accept negotiated with q-values, case-insensitively. */
function wantsStream(accept: string | undefined): boolean {
  return new Negotiator({ headers: { accept } }).mediaType(EVENT_MEDIA_TYPES) === 'text/event-stream';
}

/** Where a reconnecting stream resumes: its `Last-Event-ID` when it sends one, else `after`. */
function resumePoint(lastEventId: string | undefined, after: number | undefined): number {
  if (lastEventId === undefined || lastEventId === '') return after ?? 0;
  if (!/^\d{1,10}$/.test(lastEventId) || Number(lastEventId) > 2_147_483_647) {
    throw PylonError.invalidRequest('Last-Event-ID must be the id (a sequence number) of an event of this run');
  }
  return Number(lastEventId);
}

/**
 * Why a stream stops reading its run's events: its client went away, as every stream's client does in the
 * end. Given no reason, abort() makes a DOMException and captures its stack, on every stream.
 */
const CLIENT_GONE = new Error('the client closed the event stream');

@ApiTags('agent runs')
@ApiBearerAuth('apiKey')
@Controller('api/v1/agent-runs')
export class RunEventsController {
  constructor(
    private readonly runEvents: RunEventsService,
    private readonly config: PylonConfig,
    private readonly limits: LimitsService,
  ) {}

  @Get(':runId/events')
  @RequireScope('runs:read')
  @ApiOperation({
    operationId: 'listAgentRunEvents',
    summary: "A run's events: a live Server-Sent Events stream, or a JSON page",
    description:
      'With `Accept: text/event-stream`: every stored event after `after` (or the `Last-Event-ID` header), then each new one as it ' +
      'happens, as `id: <seq>`, `event: <type>`, `data: <JSON>`; the stream ends after the terminal event (`succeeded` or `failed`). ' +
      'Comment lines keep an idle stream open. One API key may hold EVENT_STREAMS_PER_KEY streams open at once (409 `limit_exceeded` past it). ' +
      'Otherwise: the stored events after `after` as a page.',
  })
  @ApiUuidParam('runId')
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    schema: { type: 'string', pattern: '^[0-9]{1,9}$' },
    description: 'Streams: resume right after this event: the `id` of an event the stream sent (its sequence number).',
  })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({ type: RunEventPage })
  @ApiErrors(400, 401, 403, 404, 409)
  async events(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('runId') runId: string,
    @QueryParams() query: RunEventsQuery,
    @Headers('accept') accept: string | undefined,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (!wantsStream(accept)) {
      const { events, more } = await this.runEvents.page(principal.orgId, runId, query.after ?? 0, query.limit ?? DEFAULT_PAGE);
      const page: RunEventPage = { data: events.map(toView), next_cursor: more ? String(events[events.length - 1]!.seq) : null };
      await reply.send(page);
      return;
    }
    const after = resumePoint(lastEventId, query.after);
    const stream = await this.runEvents.openStream(principal.orgId, runId, after);
    try {
      const streamClosed = this.limits.openEventStream(principal.keyId);
      try {
        await this.send(stream, request, reply);
      } finally {
        streamClosed();
      }
    } finally {
      stream.close();
    }
  }

  private async send(stream: RunEventStream, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    reply.hijack();
    const sse = new ServerSentEventStream(reply.raw);
    const gone = new AbortController();
    request.raw.once('close', () => gone.abort(CLIENT_GONE));
    reply.raw.once('close', () => gone.abort(CLIENT_GONE));
    sse.open(reply.getHeaders() as Record<string, string>, this.config.runEventsHeartbeatSeconds);
    try {
      for await (const event of stream.events(gone.signal)) {
        await sse.send({ id: String(event.seq), event: event.type, data: event.data });
        if (gone.signal.aborted) break;
      }
    } catch (error) {
      request.log.warn({ err: error }, `the event stream of run ${stream.run.id} stopped`);
    } finally {
      sse.close();
    }
  }
}
