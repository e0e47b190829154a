import { Injectable } from '@nestjs/common';
import { AgentRunsService, RunEventsService, RunMeteringService, TERMINAL_RUN_EVENTS } from '@pylon/agent-runs';
import { AgentsService } from '@pylon/agents';
import { ErrorCode, PylonError } from '@pylon/contracts';
import type { AgentRun } from '@pylon/db';
import { ResponseEventTranslator, type ResponseStreamEvent } from './response-events';
import { toResponseObject, type ResponseObject, type RunTokens } from './response-object';
import { ResponseParamError, type ResponseRequest } from './response-request';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const AGENT_MODEL = /^agent:(.+)$/;

/**
 * The Responses API over Pylon's runs: a response is an ordinary run of an agent version (the same admission,
 * ledger, webhooks and workflow, under the run's id), its object and its semantic stream made from the run and
 * its events. Waiting for a response to finish follows the run's event log; nothing polls.
 */
@Injectable()
export class ResponsesService {
  constructor(
    private readonly runs: AgentRunsService,
    private readonly runEvents: RunEventsService,
    private readonly metering: RunMeteringService,
    private readonly agents: AgentsService,
  ) {}

  /** Starts the run; the response as it is once created (queued). */
  async create(orgId: string, request: ResponseRequest, idempotencyKey: string | null): Promise<AgentRun> {
    const versionId = await this.versionOf(orgId, request.model);
    const queued = await this.runs.create(orgId, { agent_version_id: versionId, input: request.input }, idempotencyKey);
    return this.runs.get(orgId, queued.id);
  }

  async get(orgId: string, responseId: string): Promise<ResponseObject> {
    return this.objectOf(await this.run(orgId, responseId));
  }

  /** The run a response is, for a stream read again. */
  async find(orgId: string, responseId: string): Promise<AgentRun> {
    return this.run(orgId, responseId);
  }

  /** What the response was asked: its input, as the one user message it became. */
  async inputItems(orgId: string, responseId: string): Promise<InputItemList> {
    const run = await this.run(orgId, responseId);
    const item: InputMessage = {
      type: 'message',
      id: `msg_in_${run.id.replace(/-/g, '')}`,
      role: 'user',
      status: 'completed',
      content: [{ type: 'input_text', text: run.input }],
    };
    return { object: 'list', data: [item], first_id: item.id, last_id: item.id, has_more: false };
  }

  async cancel(orgId: string, responseId: string): Promise<ResponseObject> {
    await this.run(orgId, responseId);
    return this.objectOf(await this.runs.cancel(orgId, responseId));
  }

  /** The response once its run ended (or waits for the caller: it is then still in progress). */
  async finished(orgId: string, run: AgentRun, signal: AbortSignal): Promise<ResponseObject> {
    const stream = await this.runEvents.openStream(orgId, run.id, 0);
    try {
      for await (const event of stream.events(signal)) if (TERMINAL_RUN_EVENTS.includes(event.type) || event.type === 'requires_action') break;
    } finally {
      stream.close();
    }
    return this.get(orgId, run.id);
  }

  /**
   * The response's semantic events, from `response.created` to its terminal event, each handed to `send` as it
   * happens; only those after `startingAfter` (a sequence number the stream sent), to resume it.
   */
  async stream(
    orgId: string,
    run: AgentRun,
    signal: AbortSignal,
    send: (event: ResponseStreamEvent) => Promise<void>,
    startingAfter = -1,
  ): Promise<void> {
    const translator = new ResponseEventTranslator(run.id);
    const sendAll = async (events: ResponseStreamEvent[]) => {
      for (const event of events) if (event.sequence_number > startingAfter) await send(event);
    };
    await sendAll(translator.created(toResponseObject(run, null)));
    const stream = await this.runEvents.openStream(orgId, run.id, 0);
    try {
      for await (const event of stream.events(signal)) {
        if (TERMINAL_RUN_EVENTS.includes(event.type)) {
          await sendAll(translator.finished(await this.get(orgId, run.id)));
          return;
        }
        await sendAll(translator.translate(event, () => toResponseObject(run, null)));
      }
    } finally {
      stream.close();
    }
  }

  private async versionOf(orgId: string, model: string): Promise<string> {
    const agent = AGENT_MODEL.exec(model)?.[1];
    if (agent !== undefined) {
      if (!UUID.test(agent))
        throw new ResponseParamError('model', `The model \`${model}\` does not exist: agent:<agent_id> names an agent by its id`);
      const latest = await this.agents.listVersions(orgId, agent.toLowerCase(), { limit: 1 }).catch((error: unknown) => {
        throw error instanceof PylonError ? new ModelNotFound(model) : error;
      });
      if (!latest.items[0]) throw new ResponseParamError('model', `agent ${agent} has no version yet`);
      return latest.items[0].id;
    }
    if (!UUID.test(model))
      throw new ResponseParamError('model', `The model \`${model}\` does not exist: name an agent version id, or agent:<agent_id>`);
    const version = await this.agents.getVersion(orgId, model.toLowerCase()).catch((error: unknown) => {
      throw error instanceof PylonError ? new ModelNotFound(model) : error;
    });
    return version.id;
  }

  private async run(orgId: string, responseId: string): Promise<AgentRun> {
    if (!UUID.test(responseId)) throw PylonError.notFound(`No response with id '${responseId}' found.`);
    return this.runs.get(orgId, responseId.toLowerCase());
  }

  private async objectOf(run: AgentRun): Promise<ResponseObject> {
    const finished = run.status === 'succeeded' || run.status === 'failed';
    return toResponseObject(run, finished ? await this.tokens(run) : null);
  }

  private async tokens(run: AgentRun): Promise<RunTokens> {
    const usage = await this.metering.usageOf(run.orgId, run.id);
    return {
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cachedInputTokens: usage.turns.reduce((sum, turn) => sum + turn.cachedInputTokens, 0),
      reasoningTokens: usage.turns.reduce((sum, turn) => sum + turn.reasoningTokens, 0),
    };
  }
}

export interface InputMessage {
  type: 'message';
  id: string;
  role: 'user';
  status: 'completed';
  content: Array<{ type: 'input_text'; text: string }>;
}

export interface InputItemList {
  object: 'list';
  data: InputMessage[];
  first_id: string;
  last_id: string;
  has_more: boolean;
}

/** A model that names no agent version of the organisation: OpenAI's 404 `model_not_found`. */
export class ModelNotFound extends ResponseParamError {
  constructor(model: string) {
    super('model', `The model \`${model}\` does not exist or you do not have access to it.`, ErrorCode.NotFound, 'model_not_found');
  }
}
