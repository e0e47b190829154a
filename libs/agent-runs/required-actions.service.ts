import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  type AcceptedAnswer,
  PylonError,
  ANSWER_REFUSED,
  EVENT_TYPES,
  ErrorCode,
  UPDATES,
  agentRunWorkflowId,
  answerKey,
  refusedCallOutput,
  type ActionAnswer,
  type RequiredActionRequest,
  type RequiredActionType,
  type ToolCall,
} from '@pylon/contracts';
import { AgentRun } from '@pylon/db';
import { AgentRunRepository } from './repositories/agent-run.repository';
import { RunActionRepository, type AnswerWrite, type RunAction } from './repositories/run-action.repository';
import type { NewConversationItem } from './repositories/conversation.repository';
import type { NewRunEvent } from './repositories/agent-run-row';
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

/** The answer's fingerprint as stored: a repeated answer has the same, whatever the order of its entries. */
function answerHash(answer: ActionAnswer): string {
  return createHash('sha256').update(answerKey(answer)).digest('hex');
}

/**
 * What runs wait for and the answers they get. The run's workflow owns the wait: it records the action
 * (its events with it) and sleeps; the caller reads it from the projection and answers; the answer goes to
 * the workflow as an Update, whose validator checks it against the action (every call answered once,
 * nothing else; the right kind; something pending at all) and whose handler records it with what it adds
 * to the run's log and conversation. The request answers once that is done. The same answer again is
 * accepted again and changes nothing, also after the run went on or ended.
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
    if (!action || !isWaiting(run, action)) throw PylonError.notFound('the run waits for no action');
    return toView(action);
  }

  /** Hands the answer to the run's workflow; 400 when it does not fit the action, 409 when the run waits for no such action. */
  async answer(orgId: string, runId: string, answer: ActionAnswer): Promise<AgentRun> {
    // The run's workflow judges the answer first (its validator refuses another organisation's), so an
    // answer to a waiting run reads the run once, after it was taken.
    const outcome = await this.workflows.update(agentRunWorkflowId(runId), UPDATES.answerAction, { orgId, answer }).catch(() => {
      throw new PylonError(ErrorCode.OrchestratorUnavailable, 'the workflow engine did not take the answer; nothing was recorded, send it again');
    });
    const run = await this.run(orgId, runId);
    if (outcome.kind === 'done') return run;
    if (outcome.kind === 'refused' && run.status === 'running') {
      if (outcome.type === ANSWER_REFUSED.badAnswer) throw PylonError.invalidRequest(outcome.message);
      throw new PylonError(ErrorCode.RunNotWaiting, outcome.message);
    }
    // The run is not running (or its workflow just ended): only the answer it already went on with is accepted again.
    const action = await this.actions.latestOfRun(orgId, runId);
    if (action?.status === 'answered' && action.answerHash === answerHash(answer)) return run;
    if (action?.status === 'answered') throw new PylonError(ErrorCode.RunNotWaiting, "the run's action was already answered differently");
    throw new PylonError(ErrorCode.RunNotWaiting, `the run waits for no action (it is ${run.status})`);
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

  /** For the workflow, once it accepted an answer: records it with what it adds to the run's log and conversation. */
  async recordAnswer(orgId: string, answered: AcceptedAnswer): Promise<void> {
    await this.actions.answer(orgId, answerRecord(answered));
  }

  /** For the workflow, when nobody answered in time. */
  expire(orgId: string, actionId: string): Promise<void> {
    return this.actions.expire(orgId, actionId);
  }

  private async run(orgId: string, runId: string): Promise<AgentRun> {
    const run = await this.runs.findById(orgId, runId);
    if (!run) throw PylonError.notFound('no such run');
    return run;
  }
}

function isWaiting(run: AgentRun, action: RunAction): boolean {
  return run.status === 'running' && action.status === 'pending' && action.expiresAt.getTime() > Date.now();
}

/** The record of an answer the workflow accepted: the answer, its hash, and what it adds to the run's log and conversation. */
export function answerRecord({ actionId, calls, answer }: AcceptedAnswer): AnswerWrite {
  return { actionId, answer, answerHash: answerHash(answer), ...recordsOf(calls, answer) };
}

/** What an answer adds to the run's log and to its conversation. */
function recordsOf(calls: ToolCall[], answer: ActionAnswer): { log: NewRunEvent[]; items: NewConversationItem[] } {
  const nameOf = new Map(calls.map((call) => [call.id, call.name]));
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
