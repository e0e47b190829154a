import type { ToolCall, TranscriptEntry } from './agent-tools';
import type { McpServerTools } from './mcp-tools';
import type { ActionAnswer, RequiredActionRequest } from './required-actions';

export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** The error a run carries when it was cancelled through the API. */
export const RUN_CANCELLED_ERROR = 'cancelled';

/** What the API hands the agent-run workflow; activities reload everything else by id. */
export interface AgentRunWorkflowInput {
  runId: string;
  orgId: string;
  /** The version's run timeout (versions never change), known when the run is created. */
  runTimeoutSeconds: number;
  /** A worker that dies mid-call is noticed after this long, and the call retried elsewhere. */
  heartbeatTimeoutSeconds: number;
  /**
   * The version's model answers inside the worker in milliseconds (an offline model): its turns are
   * local activities, run in the workflow task that asks for them. Absent in runs started before.
   */
  modelAnswersInProcess?: boolean;
  /** How long the run waits for each required action (the version's), not counted against the run timeout. */
  actionTimeoutSeconds?: number;
  /** The version (its id) has MCP tools: their servers are listed before the first model turn. Absent in runs started before. */
  mcpVersionId?: string;
  /** The version's model, then its fallback models in order; absent when it has none. */
  modelChain?: string[];
}

export interface AgentRunOutcome {
  status: Extract<RunStatus, 'succeeded' | 'failed'>;
  error?: string;
}

/** A structured answer that does not match the version's JSON Schema, and why: the model is asked once to answer again. */
export interface OutputRepair {
  answer: string;
  fault: string;
}

/**
 * A turn as the workflow sees it: the model answered and the run is already succeeded (with the id of
 * its event to announce, null when there is none left to announce), it called tools, or its structured
 * answer missed the schema (`off_schema`: the next turn is the repair turn).
 */
export type AgentTurn =
  AnsweredTurn | { kind: 'tool_calls'; calls: PlannedToolCall[]; content?: string } | { kind: 'off_schema'; repair: OutputRepair };

export interface AnsweredTurn {
  kind: 'answered';
  eventId: string | null;
}

/** What a model turn is asked with: the transcript so far and the MCP servers' tools. */
export interface TurnInput extends AgentRunWorkflowInput {
  transcript: TranscriptEntry[];
  mcpTools?: McpServerTools[];
  /** The tool outputs the run goes on from, accepted but not yet on record: the turn records them before it asks the model. */
  answered?: AcceptedAnswer;
  /** The model that takes the turn, when it is one of the version's fallback models; absent: the version's own. */
  model?: string;
}

/** A turn its model could not take, taken by the next model of the version's chain. */
export interface ModelFallback {
  from: string;
  to: string;
  /** Why `from` could not take it, after its retries. */
  reason: string;
}

/** An answer the run's workflow accepted for the action it waited for. */
export interface AcceptedAnswer {
  actionId: string;
  calls: ToolCall[];
  answer: ActionAnswer;
}

/** The repair turn is asked with the answer to repair and its fault too. */
export interface RepairInput extends TurnInput {
  repair: OutputRepair;
}

/**
 * A tool call and who runs it: Pylon itself (an activity; `approval` when a person must approve it
 * first) or the customer (the run waits for its output).
 */
export interface PlannedToolCall extends ToolCall {
  runner: 'pylon' | 'customer';
  approval: boolean;
  /** A tool of an MCP server: Pylon calls it with callMcpTool (a heartbeating activity) rather than runTool. */
  mcp?: boolean;
}

/** Activities of the agent-run workflow. Workflows import this interface as a type only. */
export interface AgentRunActivities {
  /**
   * One model turn over the run's input and the transcript so far. The first marks the run running; an
   * answer is recorded at once (the run succeeds with its event), tool calls are handed back to run, an
   * answer off the schema is handed back for one repair turn. A run that already failed fails it with
   * RUN_ALREADY_FINISHED_ERROR.
   */
  takeTurn(input: TurnInput): Promise<AgentTurn>;
  /** The repair turn: the model is asked once more for an answer that matches the schema; it answers, or the run fails naming the fault. */
  repairAnswer(input: RepairInput): Promise<AnsweredTurn>;
  /** Runs one tool call of the model and returns its result as text for the model. */
  runTool(input: AgentRunWorkflowInput & { call: ToolCall }): Promise<string>;
  /**
   * Records what the run now waits for (with its `requires_action` event and webhook event) under the
   * workflow's `actionId`; the id of the webhook event to announce, or null.
   */
  requireAction(input: AgentRunWorkflowInput & { actionId: string; request: RequiredActionRequest }): Promise<string | null>;
  /** Records the answer the workflow accepted, with what it adds to the run's log and conversation (a retry changes nothing). */
  recordAnswer(input: AgentRunWorkflowInput & AcceptedAnswer): Promise<void>;
  /** Records in the run's log that a turn went to the next model (a `model_fallback` event). */
  recordModelFallback(input: AgentRunWorkflowInput & ModelFallback): Promise<void>;
  /** Nobody answered the action in time: records it expired. */
  expireAction(input: AgentRunWorkflowInput & { actionId: string }): Promise<void>;
  /** The id of the event recorded with the change, or null when the run was already final. */
  markRunFailed(input: AgentRunWorkflowInput & { error: string }): Promise<string | null>;
  /** Retention: deletes run events older than RUN_EVENTS_RETENTION_DAYS; how many. */
  purgeExpiredRunEvents(): Promise<number>;
}

/** Error type names thrown by activities that must not be retried. */
export const NON_RETRYABLE_LLM_ERROR = 'LlmRequestRejected';
export const RUN_NOT_FOUND_ERROR = 'RunNotFound';
/** The run reached a final status before its workflow ran it (a duplicate or replayed execution). */
export const RUN_ALREADY_FINISHED_ERROR = 'RunAlreadyFinished';
/** Nobody answered a required action in time. */
export const ACTION_EXPIRED_FAILURE = 'RequiredActionExpired';
