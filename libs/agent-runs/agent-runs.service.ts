import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import {
  ApiError,
  ErrorCode,
  FUNCTION_TOOL,
  KNOWLEDGE_SEARCH_TOOL,
  MCP_TOOL,
  RUN_CANCELLED_ERROR,
  TURN_REFUSED,
  UPDATES,
  WORKFLOW_KINDS,
  WORKFLOW_TYPES,
  agentRunWorkflowId,
  conversationWorkflowId,
  type AcceptedTurn,
  type ConversationWorkflowInput,
  type IfBusy,
  type RunStart,
  type TurnSubmission,
  toolName,
  outputMismatchError,
  type KnowledgeToolHit,
  type OutputRepair,
  type AgentTurn,
  type McpServerTools,
  type PlannedToolCall,
  type RunStatus,
  type ToolCall,
  type TranscriptEntry,
} from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import {
  AgentRepository,
  AgentRun,
  AgentRunRepository,
  AgentVersion,
  ConversationRepository,
  Transactions,
  type NewRunTurnUsage,
  type Page,
  type PageRequest,
} from '@pylon/db';
import { createOnce, fingerprint } from '@pylon/idempotency';
import { KnowledgeSearchService } from '@pylon/knowledge';
import { LimitsService } from '@pylon/limits';
import { LlmService, toolSpecs } from '@pylon/llm';
import { EventAnnouncer, WorkflowStarter, type StartRequest } from '@pylon/temporal';
import { OutputMismatchError, RunAlreadyFinishedError, RunNotFoundError } from './run-errors';
import { RunMeteringService } from './run-metering.service';
import { checkAnswer } from './structured-output';
import { RunEventsService, outputDelta } from './run-events.service';
import { runEvent, structuredRunEvent } from './run-view';
import { conversationHistory, estimateTokens, type ConversationHistory } from './conversation-history';
import { plannedMcpCall } from './mcp-planning';

/** Tokens kept free of the history for the model's answer when the version sets no max_output_tokens. */
const ANSWER_RESERVE_TOKENS = 4_096;

/** A run that is a conversation's turn: its conversation's workflow numbers it and runs it in order. */
export interface TurnRequest {
  conversationId: string;
  ifBusy: IfBusy;
}

/** A run a schedule's firing creates (the firing starts its workflow, as its child): the schedule and the firing's nominal time. */
export interface ScheduledRun {
  scheduleId: string;
  scheduledAt: Date;
}

const VERSION_CACHE_SIZE = 1_000;

/** What one model turn is asked with (TurnInput without the run's identity). */
export interface ModelTurn {
  transcript: TranscriptEntry[];
  mcpTools?: McpServerTools[];
  repair?: OutputRepair;
}

export interface NewRunRequest {
  agent_version_id: string;
  input: string;
}

/**
 * The rules of agent runs, for the API and for the workflow's activities alike. Creating a run writes
 * the queued projection first and then starts workflow `agent-run:<run_id>`, answering only once both
 * happened, so an acknowledged run is never lost. It is refused only when the organisation's backlog of
 * queued runs is full; otherwise it waits in Temporal's task queue, dispatched fairly between
 * organisations by their weights; the workflow's turns mark it running, ask the model,
 * run its tools, and record the outcome with its event.
 */
/** What a create needs of a run, new or found under its Idempotency-Key. */
export type QueuedRun = Pick<
  AgentRun,
  'id' | 'orgId' | 'agentVersionId' | 'status' | 'requestHash' | 'createdAt' | 'conversationId' | 'conversationSeq'
>;

@Injectable()
export class AgentRunsService {
  private readonly logger = new Logger(AgentRunsService.name);
  /** Versions never change once created, so each is read from the database once per process. */
  private readonly versions = new LRUCache<string, AgentVersion>({ max: VERSION_CACHE_SIZE });

  constructor(
    private readonly runs: AgentRunRepository,
    private readonly agents: AgentRepository,
    private readonly workflows: WorkflowStarter,
    private readonly events: EventAnnouncer,
    private readonly llm: LlmService,
    private readonly knowledge: KnowledgeSearchService,
    private readonly runEvents: RunEventsService,
    private readonly config: PylonConfig,
    private readonly limits: LimitsService,
    private readonly conversations: ConversationRepository,
    private readonly transactions: Transactions,
    private readonly metering: RunMeteringService,
  ) {}

  /**
   * A run, or a conversation's turn (`turn`): a turn is numbered under the conversation's lock, in the
   * order turns are accepted, and refused with 409 conversation_busy when `reject` finds an earlier
   * turn not final.
   */
  async create(
    orgId: string,
    request: NewRunRequest,
    idempotencyKey: string | null,
    turn?: TurnRequest,
    scheduled?: ScheduledRun,
  ): Promise<QueuedRun> {
    const requestHash = fingerprint({
      ...request,
      ...(turn ? { conversation_id: turn.conversationId, if_busy: turn.ifBusy } : {}),
      ...(scheduled ? { schedule_id: scheduled.scheduleId } : {}),
    });
    let version: AgentVersion | null = null;
    // Learnt as the run is inserted; a retry that finds it still queued starts it on the standard lane.
    let express = false;
    const run = await createOnce<QueuedRun>(idempotencyKey, requestHash, {
      findByKey: (key) => this.runs.findByIdempotencyKey(orgId, key),
      admit: async () => {
        version = await this.version(orgId, request.agent_version_id);
        if (!version) throw ApiError.invalidRequest('agent_version_id is not an agent version of this organisation');
        if (turn && !(await this.conversations.findById(orgId, turn.conversationId))) throw ApiError.notFound('no such conversation');
        await this.metering.admit(orgId, version.model);
        await this.limits.admitToBacklog(orgId, 'runs', (upTo) => this.runs.countQueued(orgId, upTo));
      },
      insert: async () => {
        const queued: QueuedRun = {
          id: randomUUID(),
          orgId,
          agentVersionId: request.agent_version_id,
          status: 'queued' as const,
          requestHash,
          createdAt: new Date(),
          conversationId: turn?.conversationId ?? null,
          conversationSeq: null,
        };
        const origin = scheduled ? { scheduleId: scheduled.scheduleId, scheduledAt: scheduled.scheduledAt } : {};
        const inserted = await this.runs.insertQueued({ ...queued, ...origin, input: request.input, idempotencyKey });
        express = !!inserted?.nothingElseQueued && this.config.agentRunsExpressSlots > 0;
        return inserted ? queued : null;
      },
      // A scheduled run's workflow is started by its firing, as a child (runStart).
      work: scheduled
        ? undefined
        : {
            awaitsStart: (earlier) => earlier.status === 'queued',
            start: async (queued) => {
              const start = await this.runStart(orgId, queued, version, express);
              if (!start) return;
              if (!turn) return this.workflows.start(runWorkflowStart(orgId, queued, start));
              queued.conversationSeq = await this.submitTurn(orgId, queued, turn, start);
            },
            undo: async (queued, error) => {
              await this.runs.deleteQueued(orgId, queued.id);
              if (error instanceof ApiError) return error;
              this.logger.error({ err: error }, `could not start the workflow of run ${queued.id}; removing the run`);
              return new ApiError(ErrorCode.OrchestratorUnavailable, 'the workflow engine is unavailable; nothing was created');
            },
          },
    });
    return run;
  }

  /**
   * Hands the turn to its conversation's workflow (starting it with the first turn): its number, or the
   * workflow's refusal as the API's answer (409 conversation_busy with `reject`, 404 for a deleted conversation).
   */
  private async submitTurn(orgId: string, queued: QueuedRun, turn: TurnRequest, start: RunStart): Promise<number> {
    const submission: TurnSubmission = { orgId, runId: queued.id, ifBusy: turn.ifBusy, start };
    const conversation = await this.conversations.findById(orgId, turn.conversationId);
    if (!conversation) throw ApiError.notFound('no such conversation');
    const outcome = await this.workflows.updateWithStart<AcceptedTurn>({
      workflowType: WORKFLOW_TYPES.conversation,
      workflowId: conversationWorkflowId(turn.conversationId),
      args: [{ orgId, conversationId: turn.conversationId, turnsTaken: conversation.turns } satisfies ConversationWorkflowInput],
      orgId,
      resourceId: turn.conversationId,
      summary: `Conversation ${turn.conversationId}`,
      update: UPDATES.submitTurn,
      updateArg: submission,
    });
    if (outcome.kind === 'done') return outcome.result.seq;
    if (outcome.kind === 'refused' && outcome.type === TURN_REFUSED.busy) {
      // The workflow still runs the earlier turn's child for a moment after its run is final in the projection, which is
      // what the caller sees: busy means an earlier turn not final there, so a turn refused only by that moment waits instead.
      if (turn.ifBusy === 'reject' && !(await this.conversations.hasUnfinishedTurn(orgId, turn.conversationId, queued.id))) {
        return this.submitTurn(orgId, queued, { ...turn, ifBusy: 'enqueue' }, start);
      }
      throw new ApiError(ErrorCode.ConversationBusy, outcome.message);
    }
    if (outcome.kind === 'refused' && outcome.type === TURN_REFUSED.gone) throw ApiError.notFound('no such conversation');
    throw new Error(`conversation ${turn.conversationId} took no turn: ${JSON.stringify(outcome)}`);
  }

  async get(orgId: string, runId: string): Promise<AgentRun> {
    const run = await this.runs.findById(orgId, runId);
    if (!run) throw ApiError.notFound('no such run');
    return run;
  }

  list(orgId: string, status: RunStatus | undefined, page: PageRequest): Promise<Page<AgentRun>> {
    return this.runs.list(orgId, status, page);
  }

  async cancel(orgId: string, runId: string): Promise<AgentRun> {
    const run = await this.get(orgId, runId);
    if (run.status === 'failed' && run.error === RUN_CANCELLED_ERROR) return run; // cancelled already: the same answer again
    if (run.status === 'succeeded' || run.status === 'failed') {
      throw new ApiError(ErrorCode.RunNotCancellable, `the run already ${run.status}`);
    }
    // A queued run ends at once, so it leaves the queued list now and never takes a worker's turn; its
    // workflow, cancelled too, then finds it final.
    let eventId = run.status === 'queued' ? await this.runs.markFailedIfQueued(orgId, run, RUN_CANCELLED_ERROR, runEvent) : null;
    const hadWorkflow = await this.workflows.cancel(agentRunWorkflowId(runId));
    if (!hadWorkflow) eventId ??= await this.runs.markFailed(orgId, run, RUN_CANCELLED_ERROR, runEvent);
    await this.events.announce(orgId, eventId);
    return (await this.runs.findById(orgId, runId))!;
  }

  /**
   * One model turn: marks the run running (a no-op after the first turn), asks the model, records the
   * turn's tokens with its debit (RunMeteringService), and records an answer at once: the run succeeded,
   * with its event and deliveries, in one statement (with the turn's tokens too when it was free). A version
   * with a response format has its answer checked against the schema first: one that misses it is handed
   * back (`off_schema`, with an `output_repair` event) for the repair turn, which fails the run if it misses
   * again. A retried turn whose answer was already recorded hands back the event if it was never announced.
   */
  async takeTurn(orgId: string, runId: string, turn: ModelTurn, signal: AbortSignal): Promise<AgentTurn> {
    const { transcript, mcpTools = [], repair } = turn;
    const started = await this.runs.markRunning(orgId, runId);
    if (!started) throw new RunNotFoundError(runId);
    const { run } = started;
    if (run.status === 'succeeded') return { kind: 'answered', eventId: await this.runs.unannouncedEvent(orgId, runId) };
    if (run.status !== 'running') throw new RunAlreadyFinishedError(runId, run.status);
    const version = await this.version(orgId, run.agentVersionId);
    if (!version) throw new RunNotFoundError(runId);
    // An attempt of this turn made these calls, and its result was lost with its worker: the same calls
    // again, so that the ids the caller was shown (and may be answering) stay the run's, and nothing is asked twice.
    const lost = callsNotInTranscript(started.toolCallsLogged, transcript);
    if (lost.length > 0) return { kind: 'tool_calls', calls: lost.map((call) => planned(call, version)) };
    const history = await this.history(run, version, transcript.length === 0 && !repair);
    // A structured answer is shown once it is checked: it arrives whole, with the run's final event.
    const output = version.responseFormat ? null : this.runEvents.outputRecorder(orgId, runId);
    const price = await this.metering.priceFor(orgId, version.model);
    try {
      await this.metering.requireCanPay(orgId, runId, price);
      const reply = await this.llm.generate(version.model, {
        orgId,
        instructions: version.instructions,
        input: run.input,
        temperature: version.temperature,
        maxOutputTokens: version.maxOutputTokens,
        tools: toolSpecs(version.tools, mcpTools),
        responseFormat: version.responseFormat,
        history: history.entries,
        transcript,
        signal,
        ...(repair && { repair }),
        ...(output && { onDelta: (text: string) => output.add(text) }),
      });
      /** A free turn that answered plainly: recorded with the answer, in the statement that records it. */
      const turnWithAnswer = reply.kind === 'answer' && !version.responseFormat ? this.metering.freeTurn(version.model, price, reply.usage) : null;
      if (!turnWithAnswer) await this.metering.recordTurn(orgId, runId, version.model, price, reply.usage);
      if (reply.kind === 'tool_calls' && repair) throw new OutputMismatchError(outputMismatchError('/ the repair turn called tools instead of answering'));
      // The last deltas go out with what the turn ends in: one write fewer per turn.
      const unwritten = (await output?.takeUnwritten()) ?? [];
      if (reply.kind === 'tool_calls') {
        // The calls and the conversation's items that carry them commit together: a retried turn that finds
        // the calls logged hands them back as they are, so their items must already be there.
        await this.transactions.run(async (manager) => {
          await this.runEvents.recordToolCalls(orgId, runId, reply.calls, unwritten, manager);
          await this.conversations.appendItems(
            orgId,
            runId,
            reply.calls.map((call) => ({ type: 'tool_call', data: { call_id: call.id, name: call.name, arguments: call.arguments } })),
            manager,
          );
        });
        return { kind: 'tool_calls', calls: reply.calls.map((call) => planned(call, version)), ...(reply.content ? { content: reply.content } : {}) };
      }
      if (!version.responseFormat) {
        const eventId = await this.runs.markSucceeded(orgId, run, reply.text, runEvent, unwritten.map(outputDelta), turnWithAnswer);
        return { kind: 'answered', eventId };
      }
      const checked = checkAnswer(version, reply.text);
      if (checked.ok) return { kind: 'answered', eventId: await this.runs.markSucceeded(orgId, run, reply.text, structuredRunEvent(checked.value)) };
      if (repair) throw new OutputMismatchError(outputMismatchError(checked.fault));
      await this.runEvents.recordOutputRepair(orgId, runId, checked.fault);
      return { kind: 'off_schema', repair: { answer: reply.text, fault: checked.fault } };
    } finally {
      output?.discard();
    }
  }

  /**
   * A tool call's result, as text for the model, recorded in the run's log (a knowledge search with its
   * query and the matched doc_ids); a bad call is explained to the model rather than failing the run.
   */
  async runTool(orgId: string, runId: string, call: ToolCall): Promise<string> {
    const run = await this.runs.findById(orgId, runId);
    const version = run && (await this.version(orgId, run.agentVersionId));
    if (!version) throw new RunNotFoundError(runId);
    const refuse = async (error: string) => {
      await this.runEvents.recordToolResult(orgId, runId, call, { error });
      return JSON.stringify({ error });
    };
    const tool = version.tools.find((candidate) => toolName(candidate) === call.name);
    if (!tool || tool.type !== KNOWLEDGE_SEARCH_TOOL) return refuse(`unknown tool ${call.name}`);
    let query: unknown;
    try {
      query = (JSON.parse(call.arguments) as { query?: unknown }).query;
    } catch {
      query = undefined;
    }
    if (typeof query !== 'string' || query.trim() === '') return refuse('knowledge_search needs {"query": "<text>"}');
    const matches = await this.knowledge.query(orgId, {
      query,
      matchCount: tool.match_count,
      mode: 'hybrid',
      knowledgeBaseIds: tool.knowledge_base_ids,
    });
    const hits: KnowledgeToolHit[] = matches.map((match) => ({
      doc_id: match.docId,
      chunk_id: match.chunkId,
      title: match.title,
      score: match.score,
      content: match.content,
      ...(match.pageStart !== null && match.pageEnd !== null && { page_start: match.pageStart, page_end: match.pageEnd }),
    }));
    await this.runEvents.recordToolResult(orgId, runId, call, { query, doc_ids: [...new Set(hits.map((hit) => hit.doc_id))] });
    const result = JSON.stringify({ matches: hits });
    await this.conversations.appendItems(orgId, runId, [{ type: 'tool_output', data: { call_id: call.id, output: result } }]);
    return result;
  }

  /**
   * The conversation's earlier turns as the model sees them, cut to what its context leaves after the
   * instructions, the input and the answer; the first model turn of a run records in its log how many
   * items it saw and how many were left out.
   */
  private async history(run: AgentRun, version: AgentVersion, firstTurn: boolean): Promise<ConversationHistory> {
    if (!run.conversationId || run.conversationSeq === null) return { entries: [], included: 0, omitted: 0 };
    const items = await this.conversations.itemsBeforeTurn(run.orgId, run.conversationId, run.conversationSeq);
    const budget =
      this.llm.contextTokens(version.model) -
      estimateTokens(version.instructions) -
      estimateTokens(run.input) -
      (version.maxOutputTokens ?? ANSWER_RESERVE_TOKENS);
    const history = conversationHistory(items, Math.max(budget, 0));
    if (firstTurn) await this.runEvents.recordHistory(run.orgId, run.id, history.included, history.omitted);
    return history;
  }

  async markFailed(orgId: string, runId: string, error: string): Promise<string | null> {
    const run = await this.runs.findById(orgId, runId);
    return run && this.runs.markFailed(orgId, run, error, runEvent);
  }

  /**
   * How the run's workflow starts: its input, and its lane. A run of an organisation that had nothing else
   * queued goes to the express lane, whose slots its neighbours' backlogs never hold
   * (PylonConfig.agentRunsExpressSlots). Null when its version is gone.
   */
  async runStart(orgId: string, run: QueuedRun, knownVersion: AgentVersion | null = null, express = false): Promise<RunStart | null> {
    const version = knownVersion ?? (await this.version(orgId, run.agentVersionId));
    if (!version) return null;
    return {
      input: {
        runId: run.id,
        orgId,
        runTimeoutSeconds: version.runTimeoutSeconds,
        heartbeatTimeoutSeconds: this.config.llmHeartbeatTimeoutSeconds,
        modelAnswersInProcess: this.llm.answersInProcess(version.model),
        actionTimeoutSeconds: version.actionTimeoutSeconds,
        ...(version.tools.some((tool) => tool.type === MCP_TOOL) ? { mcpVersionId: version.id } : {}),
      },
      taskQueue: this.config.taskQueue(WORKFLOW_KINDS[WORKFLOW_TYPES.agentRun], express ? 'express' : 'standard'),
      fairnessWeight: await this.limits.dispatchWeight(orgId),
      summary: run.conversationId ? `Agent run ${run.id} (a turn of conversation ${run.conversationId})` : `Agent run ${run.id}`,
    };
  }

  private async version(orgId: string, versionId: string): Promise<AgentVersion | null> {
    const key = `${orgId}/${versionId}`;
    const cached = this.versions.get(key);
    if (cached) return cached;
    const version = await this.agents.findVersion(orgId, versionId);
    if (version) this.versions.set(key, version);
    return version;
  }
}

/** The logged calls the workflow's transcript does not hold: made by an earlier attempt of the turn it asks for now. */
function callsNotInTranscript(logged: ToolCall[], transcript: TranscriptEntry[]): ToolCall[] {
  const known = new Set(transcript.flatMap((entry) => (entry.role === 'assistant' ? entry.toolCalls.map((call) => call.id) : [])));
  return logged.filter((call) => !known.has(call.id));
}

/** Who runs a call: the customer for a function tool, Pylon for the rest (after approval when the tool asks for it). */
function planned(call: ToolCall, version: AgentVersion): PlannedToolCall {
  const mcp = plannedMcpCall(call, version.tools);
  if (mcp) return mcp;
  const tool = version.tools.find((candidate) => toolName(candidate) === call.name);
  if (tool?.type === FUNCTION_TOOL) return { ...call, runner: 'customer', approval: false };
  return { ...call, runner: 'pylon', approval: tool?.type === KNOWLEDGE_SEARCH_TOOL && tool.require_approval === 'always' };
}

/** A run's own workflow, started by the API. */
function runWorkflowStart(orgId: string, run: QueuedRun, start: RunStart): StartRequest {
  return {
    workflowType: WORKFLOW_TYPES.agentRun,
    workflowId: agentRunWorkflowId(run.id),
    args: [start.input],
    orgId,
    fairnessWeight: start.fairnessWeight,
    taskQueue: start.taskQueue,
    resourceId: run.id,
    summary: start.summary,
  };
}
