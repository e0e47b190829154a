import type { LlmTurn, ToolCall, TranscriptEntry } from './agent-tools';

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
}

export interface AgentRunOutcome {
  status: Extract<RunStatus, 'succeeded' | 'failed'>;
  error?: string;
}

/** Activities of the agent-run workflow. Workflows import this interface as a type only. */
export interface AgentRunActivities {
  /**
   * One model turn over the run's input and the transcript so far: an answer, or tool calls. The first
   * marks the run running; a run already final fails it with RUN_ALREADY_FINISHED_ERROR.
   */
  generateTurn(input: AgentRunWorkflowInput & { transcript: TranscriptEntry[] }): Promise<LlmTurn>;
  /** Runs one tool call of the model and returns its result as text for the model. */
  runTool(input: AgentRunWorkflowInput & { call: ToolCall }): Promise<string>;
  /** The id of the event recorded with the change, or null when the run was already final. */
  markRunSucceeded(input: AgentRunWorkflowInput & { output: string }): Promise<string | null>;
  markRunFailed(input: AgentRunWorkflowInput & { error: string }): Promise<string | null>;
}

/** Error type names thrown by activities that must not be retried. */
export const NON_RETRYABLE_LLM_ERROR = 'LlmRequestRejected';
export const RUN_NOT_FOUND_ERROR = 'RunNotFound';
/** The run reached a final status before its workflow ran it (a duplicate or replayed execution). */
export const RUN_ALREADY_FINISHED_ERROR = 'RunAlreadyFinished';
