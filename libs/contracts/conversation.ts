import type { AgentRunActivities, AgentRunWorkflowInput } from './agent-run';

/** What a conversation's turn does when an earlier turn is not final yet. */
export const IF_BUSY = ['enqueue', 'reject', 'interrupt'] as const;
export type IfBusy = (typeof IF_BUSY)[number];

/** How a run's workflow is started (by the API, or as a child): its input, the lane and fairness weight the API chose, its summary. */
export interface RunStart {
  input: AgentRunWorkflowInput;
  taskQueue: string;
  fairnessWeight?: number;
  summary: string;
}

/** A new turn for the conversation's workflow (an Update): the run the API recorded queued, and how it goes. */
export interface TurnSubmission {
  orgId: string;
  runId: string;
  ifBusy: IfBusy;
  start: RunStart;
}

/** A turn the conversation accepted: its number (turns are numbered in the order accepted, from 1). */
export interface AcceptedTurn {
  seq: number;
}

/** A turn accepted and waiting for the turns before it. */
export interface WaitingTurn {
  seq: number;
  submission: TurnSubmission;
}

export interface ConversationWorkflowInput {
  orgId: string;
  conversationId: string;
  /** The number of the last turn taken (the conversation's `turns` when its workflow first started). */
  turnsTaken: number;
  /** Carried over a continue-as-new: the turns accepted and not run yet, in order. */
  waiting?: WaitingTurn[];
  /** Continue-as-new after this many turns (to keep the history bounded); default CONVERSATION_TURNS_PER_HISTORY. */
  turnsPerHistory?: number;
}

export const CONVERSATION_TURNS_PER_HISTORY = 200;

/** Why the conversation's workflow refused a turn (its Update validator's failure type). */
export const TURN_REFUSED = { busy: 'ConversationBusy', gone: 'ConversationGone' } as const;

/** Activities of the conversation workflow (local: short statements). Workflows import this interface as a type only. */
export interface ConversationActivities {
  /** Records the turn's number on its run and on the conversation (a retry changes nothing). */
  numberTurn(input: { orgId: string; conversationId: string; runId: string; seq: number }): Promise<void>;
  /** An earlier turn an `interrupt` dropped before it started: fails it `cancelled`; the webhook event's id to announce, or null. */
  markRunFailed: AgentRunActivities['markRunFailed'];
}
