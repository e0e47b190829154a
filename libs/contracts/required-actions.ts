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

/** Signalled to a waiting run's workflow once the answer is recorded: it goes on with it. */
export interface ActionAnsweredSignal {
  actionId: string;
  answer: ActionAnswer;
}

/** What the workflow asks to wait for; the activity records it and says how to wait. */
export interface RequiredActionRequest {
  type: RequiredActionType;
  calls: ToolCall[];
}

/** How a recorded action ended when its time ran out: answered just in time, or expired. */
export type ActionClosed = { kind: 'answered'; answer: ActionAnswer } | { kind: 'expired' };

export const SIGNALS = {
  actionAnswered: 'actionAnswered',
  conversationTurnFreed: 'conversationTurnFreed',
  /** A scheduled run's workflow ended: the firing that created it ends too (so the overlap policy sees it). */
  scheduledRunFinished: 'scheduledRunFinished',
} as const;

/** What the model is told of a call a person refused: the same text in the workflow and in the conversation. */
export function refusedCallOutput(reason: string | undefined): string {
  return JSON.stringify({ error: `the call was not approved${reason ? `: ${reason}` : ''}` });
}
