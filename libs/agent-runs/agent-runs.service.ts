import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import {
  PylonError,
  ErrorCode,
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
  type RunStatus,
  type TurnSubmission,
} from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { AgentRun, AgentVersion, type Page, type PageRequest } from '@pylon/db';
import { AgentRunRepository } from './repositories/agent-run.repository';
import { ConversationRepository } from './repositories/conversation.repository';
import { createOnce, fingerprint } from '@pylon/idempotency';
import { LimitsService } from '@pylon/limits';
import { LlmService } from '@pylon/llm';
import { EventAnnouncer, WorkflowStarter, type StartRequest } from '@pylon/temporal';
import { AgentVersions } from './agent-versions';
import { RunMeteringService } from './run-metering.service';
import { runEvent } from './run-view';

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

export interface NewRunRequest {
  agent_version_id: string;
  input: string;
}

/** What a create needs of a run, new or found under its Idempotency-Key. */
export type QueuedRun = Pick<
  AgentRun,
  'id' | 'orgId' | 'agentVersionId' | 'status' | 'requestHash' | 'createdAt' | 'conversationId' | 'conversationSeq'
>;

/**
 * Run admission, for the API: creating a run writes the queued projection first and then starts workflow
 * `agent-run:<run_id>` (or hands the turn to its conversation's workflow), answering only once both
 * happened, so an acknowledged run is never lost. It is refused only when the organisation's backlog of
 * queued runs is full; otherwise it waits in Temporal's task queue, dispatched fairly between
 * organisations by their weights. Reading, listing and cancelling runs; the failure record. The run's
 * model turns are ModelTurnService's, its tools are in tools/.
 */
@Injectable()
export class AgentRunsService {
  private readonly logger = new Logger(AgentRunsService.name);

  constructor(
    private readonly runs: AgentRunRepository,
    private readonly versions: AgentVersions,
    private readonly workflows: WorkflowStarter,
    private readonly events: EventAnnouncer,
    private readonly llm: LlmService,
    private readonly config: PylonConfig,
    private readonly limits: LimitsService,
    private readonly conversations: ConversationRepository,
    private readonly metering: RunMeteringService,
  ) {}

  /**
   * A run, a conversation's turn (`turn`: its conversation's workflow numbers it, or refuses it with 409
   * conversation_busy when `reject` finds an earlier turn not final), or a schedule's firing (`scheduled`).
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
        version = await this.versions.find(orgId, request.agent_version_id);
        if (!version) throw PylonError.invalidRequest('agent_version_id is not an agent version of this organisation');
        if (turn && !(await this.conversations.findById(orgId, turn.conversationId))) throw PylonError.notFound('no such conversation');
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
              if (error instanceof PylonError) return error;
              this.logger.error({ err: error }, `could not start the workflow of run ${queued.id}; removing the run`);
              return new PylonError(ErrorCode.OrchestratorUnavailable, 'the workflow engine is unavailable; nothing was created');
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
    if (!conversation) throw PylonError.notFound('no such conversation');
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
      throw new PylonError(ErrorCode.ConversationBusy, outcome.message);
    }
    if (outcome.kind === 'refused' && outcome.type === TURN_REFUSED.gone) throw PylonError.notFound('no such conversation');
    throw new Error(`conversation ${turn.conversationId} took no turn: ${JSON.stringify(outcome)}`);
  }

  async get(orgId: string, runId: string): Promise<AgentRun> {
    const run = await this.runs.findById(orgId, runId);
    if (!run) throw PylonError.notFound('no such run');
    return run;
  }

  list(orgId: string, status: RunStatus | undefined, page: PageRequest): Promise<Page<AgentRun>> {
    return this.runs.list(orgId, status, page);
  }

  async cancel(orgId: string, runId: string): Promise<AgentRun> {
    const run = await this.get(orgId, runId);
    if (run.status === 'failed' && run.error === RUN_CANCELLED_ERROR) return run; // cancelled already: the same answer again
    if (run.status === 'succeeded' || run.status === 'failed') {
      throw new PylonError(ErrorCode.RunNotCancellable, `the run already ${run.status}`);
    }
    // A queued run ends at once, so it leaves the queued list now and never takes a worker's turn; its
    // workflow, cancelled too, then finds it final.
    let eventId = run.status === 'queued' ? await this.runs.markFailedIfQueued(orgId, run, RUN_CANCELLED_ERROR, runEvent) : null;
    const hadWorkflow = await this.workflows.cancel(agentRunWorkflowId(runId));
    if (!hadWorkflow) eventId ??= await this.runs.markFailed(orgId, run, RUN_CANCELLED_ERROR, runEvent);
    await this.events.announce(orgId, eventId);
    return (await this.runs.findById(orgId, runId))!;
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
    const version = knownVersion ?? (await this.versions.find(orgId, run.agentVersionId));
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
        ...(version.fallbackModels.length > 0 ? { modelChain: [version.model, ...version.fallbackModels] } : {}),
      },
      taskQueue: this.config.taskQueue(WORKFLOW_KINDS[WORKFLOW_TYPES.agentRun], express ? 'express' : 'standard'),
      fairnessWeight: await this.limits.dispatchWeight(orgId),
      summary: run.conversationId ? `Agent run ${run.id} (a turn of conversation ${run.conversationId})` : `Agent run ${run.id}`,
    };
  }
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
