import type { ToolCall } from './agent-tools';

/**
 * What a waiting run needs before it can go on: the outputs of the customer's function tools, or a
 * person's approval of the calls of tools Pylon runs itself.
 */
export const REQUIRED_ACTION_TYPES = ['submit_tool_outputs', 'approve_tool_calls'] as const;
export type RequiredActionType = (typeof REQUIRED_ACTION_TYPES)[number];

/** How long a run waits for its action by default (a day), and at most (30 days). */
export const DEFAULT_ACTION_TIMEOUT_SECONDS = 86_400;
export const MAX_ACTION_TIMEOUT_SECONDS = 2_592_000;
/** The error a run ends with when nobody answered its action in time. */
export const ACTION_EXPIRED_ERROR = 'required action expired';
/** The longest tool output a caller may send back, in characters. */
export const MAX_TOOL_OUTPUT_CHARS = 100_000;

export interface ToolOutput {
  tool_call_id: string;
  output: string;
}

export interface ToolApproval {
  tool_call_id: string;
  approve: boolean;
  reason?: string;
}

/** The answer to an action: the outputs of every call, or a decision on every call. */
export type ActionAnswer = { type: 'submit_tool_outputs'; tool_outputs: ToolOutput[] } | { type: 'approve_tool_calls'; approvals: ToolApproval[] };

/** An answer as the API hands it to the run's workflow (an Update): the organisation whose run it is, and the answer. */
export interface ActionAnswerUpdate {
  orgId: string;
  answer: ActionAnswer;
}

/** What the workflow asks to wait for; the activity records it and says how to wait. */
export interface RequiredActionRequest {
  type: RequiredActionType;
  calls: ToolCall[];
}

/**
 * Why a run's workflow refused an answer (the failure type its Update validator throws): the answer does
 * not fit the action (400 invalid_request), or the run waits for no such action (409 run_not_waiting).
 * The message is what the caller is told.
 */
export const ANSWER_REFUSED = { badAnswer: 'AnswerDoesNotFit', notWaiting: 'RunNotWaiting' } as const;

export const UPDATES = {
  /** The caller's tool outputs or approvals for the action the run waits for. */
  answerAction: 'answerAction',
  /** A conversation's new turn, accepted (and numbered) or refused by the conversation's workflow. */
  submitTurn: 'submitTurn',
} as const;

export const SIGNALS = {
  /** The conversation was deleted: its workflow takes no more turns, and ends once the turns it has are done. */
  conversationDeleted: 'conversationDeleted',
} as const;

/** What the model is told of a call a person refused: the same text in the workflow and in the conversation. */
export function refusedCallOutput(reason: string | undefined): string {
  return JSON.stringify({ error: `the call was not approved${reason ? `: ${reason}` : ''}` });
}

/** The same answer, whatever order its entries came in: what tells a repeated answer from a different one. */
export function answerKey(answer: ActionAnswer): string {
  const entries = answer.type === 'submit_tool_outputs' ? answer.tool_outputs : answer.approvals;
  const sorted = [...entries].sort((a, b) => (a.tool_call_id < b.tool_call_id ? -1 : a.tool_call_id > b.tool_call_id ? 1 : 0));
  return JSON.stringify({ type: answer.type, entries: sorted });
}

/** Why the answer does not fit the action's calls (each answered exactly once, nothing else), naming the first fault; null when it fits. */
export function answerFault(calls: ToolCall[], answer: ActionAnswer): string | null {
  const field = answer.type === 'submit_tool_outputs' ? 'tool_outputs' : 'approvals';
  const entries = answer.type === 'submit_tool_outputs' ? answer.tool_outputs : answer.approvals;
  const expected = new Set(calls.map((call) => call.id));
  const seen = new Set<string>();
  for (const [index, entry] of entries.entries()) {
    if (!expected.has(entry.tool_call_id)) return `${field}.${index}.tool_call_id: ${entry.tool_call_id} is not a call this run waits for`;
    if (seen.has(entry.tool_call_id)) return `${field}.${index}.tool_call_id: ${entry.tool_call_id} is answered twice`;
    seen.add(entry.tool_call_id);
  }
  const missing = calls.find((call) => !seen.has(call.id));
  return missing ? `${field}: no answer for call ${missing.id} (${missing.name})` : null;
}
