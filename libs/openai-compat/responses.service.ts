import { Injectable } from '@nestjs/common';
import { AgentRunsService, RequiredActionsService, RunEventsService, RunMeteringService, TERMINAL_RUN_EVENTS } from '@pylon/agent-runs';
import { AgentsService } from '@pylon/agents';
import { ErrorCode, PylonError } from '@pylon/contracts';
import type { AgentRun } from '@pylon/db';
import { parseModelName, runIdOf } from './model-name';
import { ResponseEventTranslator, type ResponseStreamEvent } from './response-events';
import { toResponseObject, type PendingAction, type ResponseObject, type RunTokens } from './response-object';
import { ResponseParamError, type ResponseRequest } from './response-request';

/** How long a cancel waits for the run's workflow to end it before answering the response as it is then. */
const CANCEL_WAIT_MS = 10_000;

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
    private readonly actions: RequiredActionsService,
  ) {}

  /**
   * Starts the run, or (with `previous_response_id`) hands the outputs of its function calls to the run that
   * response is, which goes on with them: the same run, so the same id. `after` is where the new part of its
   * event log starts.
   */
  async create(orgId: string, request: ResponseRequest, idempotencyKey: string | null): Promise<StartedResponse> {
    const versionId = await this.versionOf(orgId, request.model);
    if (request.continues) {
      const previous = await this.find(orgId, request.continues.responseId).catch((error: unknown) => {
        throw error instanceof PylonError
          ? new ResponseParamError('previous_response_id', `No response with id '${request.continues!.responseId}' found.`, ErrorCode.NotFound)
          : error;
      });
      if (previous.agentVersionId !== versionId)
        throw new ResponseParamError('model', `the previous response was answered by ${previous.agentVersionId}`);
      const after = await this.lastEventSeq(orgId, previous.id);
      const run = await this.actions.answer(orgId, previous.id, { type: 'submit_tool_outputs', tool_outputs: request.continues.outputs });
      return { run, after, continuing: true };
    }
    const queued = await this.runs.create(orgId, { agent_version_id: versionId, input: request.input }, idempotencyKey);
    return { run: await this.runs.get(orgId, queued.id), after: 0, continuing: false };
  }

  async get(orgId: string, responseId: string): Promise<ResponseObject> {
    return this.objectOf(await this.find(orgId, responseId));
  }

  /** The run a response is (another organisation's is not found). */
  async find(orgId: string, responseId: string): Promise<AgentRun> {
    const runId = runIdOf(responseId);
    if (!runId) throw PylonError.notFound(`No response with id '${responseId}' found.`);
    return this.runs.get(orgId, runId);
  }

  /** What the response was asked: its input, as the one user message it became. */
  async inputItems(orgId: string, responseId: string): Promise<InputItemList> {
    const run = await this.find(orgId, responseId);
    const item: InputMessage = {
      type: 'message',
      id: `msg_in_${run.id.replace(/-/g, '')}`,
      role: 'user',
      status: 'completed',
      content: [{ type: 'input_text', text: run.input }],
    };
    return { object: 'list', data: [item], first_id: item.id, last_id: item.id, has_more: false };
  }

  /**
   * Cancels the run and answers once its workflow has ended it (`cancelled`), following its log for at most
   * CANCEL_WAIT_MS: a run in the middle of a model call ends when the call is cut.
   */
  async cancel(orgId: string, responseId: string): Promise<ResponseObject> {
    const run = await this.runs.cancel(orgId, (await this.find(orgId, responseId)).id);
    if (!hasEnded(run)) await this.untilEnded(orgId, run.id, AbortSignal.timeout(CANCEL_WAIT_MS)).catch(() => undefined);
    return this.get(orgId, run.id);
  }

  private async untilEnded(orgId: string, runId: string, signal: AbortSignal): Promise<void> {
    const stream = await this.runEvents.openStream(orgId, runId, 0);
    try {
      for await (const event of stream.events(signal)) if (TERMINAL_RUN_EVENTS.includes(event.type)) return;
    } finally {
      stream.close();
    }
  }

  /** The response once its run ended, or waits for the caller (its function calls' outputs, or a person's approval). */
  async finished(orgId: string, started: StartedResponse, signal: AbortSignal): Promise<ResponseObject> {
    // A retried continuation whose run already ended: nothing follows in its log, the answer is the end.
    if (hasEnded(started.run)) return this.get(orgId, started.run.id);
    const stream = await this.runEvents.openStream(orgId, started.run.id, started.after);
    try {
      for await (const event of stream.events(signal)) if (TERMINAL_RUN_EVENTS.includes(event.type) || event.type === 'requires_action') break;
    } finally {
      stream.close();
    }
    return this.get(orgId, started.run.id);
  }

  /**
   * The response's semantic events, from `response.created` to its terminal event (or to its function calls,
   * when the run waits for their outputs), each handed to `send` as it happens; only those after `startingAfter`
   * (a sequence number the stream sent), to resume it.
   */
  async stream(
    orgId: string,
    started: StartedResponse,
    signal: AbortSignal,
    send: (event: ResponseStreamEvent) => Promise<void>,
    startingAfter = -1,
  ): Promise<void> {
    const { run } = started;
    const translator = new ResponseEventTranslator(run.id);
    const sendAll = async (events: ResponseStreamEvent[]) => {
      for (const event of events) if (event.sequence_number > startingAfter) await send(event);
    };
    const current = () => toResponseObject(run, null);
    await sendAll(translator.created(current(), started.continuing));
    if (started.continuing && hasEnded(run)) {
      await sendAll(translator.finished(await this.get(orgId, run.id)));
      return;
    }
    const stream = await this.runEvents.openStream(orgId, run.id, started.after);
    try {
      for await (const event of stream.events(signal)) {
        if (TERMINAL_RUN_EVENTS.includes(event.type)) {
          await sendAll(translator.finished(await this.get(orgId, run.id)));
          return;
        }
        if (event.type === 'requires_action') {
          const pending = event.data as unknown as PendingAction;
          // A person's approval is answered through Pylon's API: the stream goes on waiting for what follows.
          if (pending.type !== 'submit_tool_outputs') continue;
          // The response with its function calls and the usage so far, as the completed response it is for now.
          const waiting = await this.get(orgId, run.id);
          await sendAll(translator.waiting(pending, () => waiting) ?? []);
          return;
        }
        await sendAll(translator.translate(event, current));
      }
    } finally {
      stream.close();
    }
  }

  private async versionOf(orgId: string, model: string): Promise<string> {
    const named = parseModelName(model);
    if (!named) throw new ResponseParamError('model', `The model \`${model}\` does not exist: name an agent version id, or agent:<agent_id>`);
    const notFound = (error: unknown) => Promise.reject(error instanceof PylonError ? new ModelNotFound(model) : error);
    if (named.kind === 'version') return (await this.agents.getVersion(orgId, named.versionId).catch(notFound)).id;
    const latest = await this.agents.listVersions(orgId, named.agentId, { limit: 1 }).catch(notFound);
    if (!latest.items[0]) throw new ResponseParamError('model', `agent ${named.agentId} has no version yet`);
    return latest.items[0].id;
  }

  private async objectOf(run: AgentRun): Promise<ResponseObject> {
    const pending = run.status === 'running' ? await this.pendingAction(run) : null;
    const finished = hasEnded(run) || pending?.type === 'submit_tool_outputs';
    return toResponseObject(run, finished ? await this.tokens(run) : null, pending);
  }

  private async pendingAction(run: AgentRun): Promise<PendingAction | null> {
    return this.actions.pending(run.orgId, run.id).catch((error: unknown) => {
      if (error instanceof PylonError && error.code === ErrorCode.NotFound) return null;
      throw error;
    });
  }

  /** The sequence number of the run's latest event (0 when it has none). */
  private async lastEventSeq(orgId: string, runId: string): Promise<number> {
    let after = 0;
    for (;;) {
      const { events, more } = await this.runEvents.page(orgId, runId, after, 1_000);
      if (events.length > 0) after = events[events.length - 1]!.seq;
      if (!more) return after;
    }
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

function hasEnded(run: AgentRun): boolean {
  return run.status === 'succeeded' || run.status === 'failed';
}

/** A response as created: its run, where the part of its event log this response follows starts, and whether it goes on from an earlier one. */
export interface StartedResponse {
  run: AgentRun;
  after: number;
  continuing: boolean;
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
