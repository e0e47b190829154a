import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  ApiError,
  EVENT_TYPES,
  ErrorCode,
  SIGNALS,
  agentRunWorkflowId,
  refusedCallOutput,
  type ActionAnswer,
  type ActionClosed,
  type RequiredActionRequest,
  type RequiredActionType,
  type ToolCall,
} from '@pylon/contracts';
import { AgentRun, AgentRunRepository, RunActionRepository, type NewConversationItem, type NewRunEvent, type RunAction } from '@pylon/db';
import { WorkflowStarter } from '@pylon/temporal';
import { toAgentRunView } from './run-view';

/** A pending action as the API shows it (and as the `requires_action` event carries it). */
export interface RequiredActionView {
  type: RequiredActionType;
  tool_calls: ToolCall[];
  expires_at: string;
}

function toView(action: RunAction): RequiredActionView {
  return { type: action.type, tool_calls: action.toolCalls, expires_at: action.expiresAt.toISOString() };
}

/** The same answer, whatever order its entries came in. */
function answerHash(answer: ActionAnswer): string {
  const entries = answer.type === 'submit_tool_outputs' ? answer.tool_outputs : answer.approvals;
  const sorted = [...entries].sort((a, b) => (a.tool_call_id < b.tool_call_id ? -1 : a.tool_call_id > b.tool_call_id ? 1 : 0));
  return createHash('sha256')
    .update(JSON.stringify({ type: answer.type, entries: sorted }))
    .digest('hex');
}

/**
 * What runs wait for and the answers they get. The workflow records an action and sleeps; the caller
 * reads it and answers; the answer is checked against the action (every call answered once, nothing
 * else), recorded in PostgreSQL in one statement with what it adds to the run's log and conversation,
 * and only then signalled to the workflow. So an answer is never lost: if the signal does not get
 * through, the same request again signals it again, and a workflow whose wait ran out finds it recorded.
 */
@Injectable()
export class RequiredActionsService {
  constructor(
    private readonly runs: AgentRunRepository,
    private readonly actions: RunActionRepository,
    private readonly workflows: WorkflowStarter,
  ) {}

  /** What the run waits for now; 404 for another organisation's run, or a run that waits for nothing. */
  async pending(orgId: string, runId: string): Promise<RequiredActionView> {
    const run = await this.run(orgId, runId);
    const action = await this.actions.latestOfRun(orgId, runId);
    if (!action || !isWaiting(run, action)) throw ApiError.notFound('the run waits for no action');
    return toView(action);
  }

  /**
   * Answers the run's pending action. The same answer again answers the same (and hands it to the run
   * again, in case it did not get it); anything else for a run that waits for nothing is 409.
   */
  async answer(orgId: string, runId: string, answer: ActionAnswer): Promise<AgentRun> {
    const run = await this.run(orgId, runId);
    const hash = answerHash(answer);
    let action = await this.actions.latestOfRun(orgId, runId);
    if (action && isWaiting(run, action)) {
      if (action.type !== answer.type) throw notWaiting(run, action, answer.type);
      checkAnswers(action, answer);
      const { log, items } = recordsOf(action, answer);
      if (await this.actions.answer(orgId, action.id, answer, hash, log, items)) action = { ...action, status: 'answered', answerHash: hash };
      else action = await this.actions.findById(orgId, action.id); // answered or expired meanwhile
    }
    if (!action || action.status !== 'answered' || action.answerHash !== hash) throw notWaiting(run, action, answer.type);
    await this.handToRun(run, action.id, answer);
    return (await this.runs.findById(orgId, runId))!;
  }

  /** For the workflow: records the action the run now waits for, with its events; the webhook event's id to announce, or null. */
  async record(orgId: string, runId: string, actionId: string, request: RequiredActionRequest, timeoutSeconds: number): Promise<string | null> {
    const run = await this.runs.findById(orgId, runId);
    const expiresAt = new Date(Date.now() + timeoutSeconds * 1000);
    const view: RequiredActionView = { type: request.type, tool_calls: request.calls, expires_at: expiresAt.toISOString() };
    return this.actions.insert(
      orgId,
      { id: actionId, runId, type: request.type, toolCalls: request.calls, expiresAt },
      { type: 'requires_action', data: { ...view } },
      { type: EVENT_TYPES.agentRunRequiresAction, data: { ...(run ? toAgentRunView(run) : { run_id: runId }), required_action: view } },
    );
  }

  /** For the workflow, when its wait ran out: the answer recorded just in time, or the action expired. */
  async close(orgId: string, actionId: string): Promise<ActionClosed> {
    const action = await this.actions.expire(orgId, actionId);
    return action?.status === 'answered' && action.answer ? { kind: 'answered', answer: action.answer } : { kind: 'expired' };
  }

  private async run(orgId: string, runId: string): Promise<AgentRun> {
    const run = await this.runs.findById(orgId, runId);
    if (!run) throw ApiError.notFound('no such run');
    return run;
  }

  /** Signals the recorded answer to a run not final yet; if it does not get through, the answer stays recorded. */
  private async handToRun(run: AgentRun, actionId: string, answer: ActionAnswer): Promise<void> {
    if (run.status !== 'running') return;
    try {
      await this.workflows.signal(agentRunWorkflowId(run.id), SIGNALS.actionAnswered, { actionId, answer });
    } catch {
      throw new ApiError(
        ErrorCode.OrchestratorUnavailable,
        'the answer is recorded, but the workflow engine did not take it; send the same request again to hand it to the run',
      );
    }
  }
}

function isWaiting(run: AgentRun, action: RunAction): boolean {
  return run.status === 'running' && action.status === 'pending' && action.expiresAt.getTime() > Date.now();
}

function notWaiting(run: AgentRun, action: RunAction | null, asked: RequiredActionType): ApiError {
  if (action && action.type !== asked && isWaiting(run, action)) {
    return new ApiError(ErrorCode.RunNotWaiting, `the run waits for ${action.type}, not ${asked}`);
  }
  if (action?.status === 'answered') return new ApiError(ErrorCode.RunNotWaiting, "the run's action was already answered differently");
  return new ApiError(ErrorCode.RunNotWaiting, `the run waits for no action (it is ${run.status})`);
}

/** Every call of the action (of the answer's type) answered exactly once, and nothing else; 400 naming the first fault. */
function checkAnswers(action: RunAction, answer: ActionAnswer): void {
  const field = answer.type === 'submit_tool_outputs' ? 'tool_outputs' : 'approvals';
  const entries = answer.type === 'submit_tool_outputs' ? answer.tool_outputs : answer.approvals;
  const expected = new Set(action.toolCalls.map((call) => call.id));
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    if (!expected.has(entry.tool_call_id))
      throw ApiError.invalidRequest(`${field}.${index}.tool_call_id: ${entry.tool_call_id} is not a call this run waits for`);
    if (seen.has(entry.tool_call_id)) throw ApiError.invalidRequest(`${field}.${index}.tool_call_id: ${entry.tool_call_id} is answered twice`);
    seen.add(entry.tool_call_id);
  });
  const missing = action.toolCalls.find((call) => !seen.has(call.id));
  if (missing) throw ApiError.invalidRequest(`${field}: no answer for call ${missing.id} (${missing.name})`);
}

/** What an answer adds to the run's log and to its conversation. */
function recordsOf(action: RunAction, answer: ActionAnswer): { log: NewRunEvent[]; items: NewConversationItem[] } {
  const nameOf = new Map(action.toolCalls.map((call) => [call.id, call.name]));
  if (answer.type === 'submit_tool_outputs') {
    return {
      log: answer.tool_outputs.map((o) => ({
        type: 'tool_result',
        data: { call_id: o.tool_call_id, name: nameOf.get(o.tool_call_id), output: o.output },
      })),
      items: answer.tool_outputs.map((o) => ({ type: 'tool_output', data: { call_id: o.tool_call_id, output: o.output } })),
    };
  }
  return {
    log: answer.approvals.map((a) => ({
      type: 'tool_approval',
      data: { call_id: a.tool_call_id, name: nameOf.get(a.tool_call_id), approved: a.approve, reason: a.reason ?? null },
    })),
    items: answer.approvals
      .filter((a) => !a.approve)
      .map((a) => ({ type: 'tool_output', data: { call_id: a.tool_call_id, output: refusedCallOutput(a.reason) } })),
  };
}
