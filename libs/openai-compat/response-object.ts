import { RUN_CANCELLED_ERROR, type RequiredActionType, type ToolCall } from '@pylon/contracts';
import type { AgentRun } from '@pylon/db';

export type ResponseStatus = 'queued' | 'in_progress' | 'completed' | 'failed' | 'cancelled' | 'incomplete';

export interface OutputText {
  type: 'output_text';
  text: string;
  annotations: never[];
  logprobs: never[];
}

export interface MessageItem {
  type: 'message';
  id: string;
  status: 'in_progress' | 'completed';
  role: 'assistant';
  content: OutputText[];
}

export interface FunctionCallItem {
  type: 'function_call';
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  status: 'in_progress' | 'completed';
}

/** What a waiting run waits for (its `requires_action` event). */
export interface PendingAction {
  type: RequiredActionType;
  tool_calls: ToolCall[];
}

export interface ResponseUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens_details: { reasoning_tokens: number };
}

/** A run's tokens as a response's usage. */
export interface RunTokens {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  reasoningTokens: number;
}

/** The Responses API's response object, for a run: its fields as the Open Responses specification names them. */
export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  completed_at: number | null;
  status: ResponseStatus;
  model: string;
  output: Array<MessageItem | FunctionCallItem>;
  usage: ResponseUsage | null;
  error: { code: string; message: string } | null;
  incomplete_details: null;
  previous_response_id: null;
  instructions: null;
  metadata: Record<string, string>;
  tools: never[];
  tool_choice: 'auto';
  parallel_tool_calls: boolean;
  text: { format: { type: 'text' } };
  truncation: 'disabled';
  temperature: null;
  top_p: null;
  max_output_tokens: null;
  store: true;
}

/** A run's status as a response's. A cancelled run is `failed` with the error `cancelled` in Pylon's API. */
export function responseStatus(run: Pick<AgentRun, 'status' | 'error'>): ResponseStatus {
  if (run.status === 'queued') return 'queued';
  if (run.status === 'running') return 'in_progress';
  if (run.status === 'succeeded') return 'completed';
  return run.error === RUN_CANCELLED_ERROR ? 'cancelled' : 'failed';
}

/** The one message a run answers with: its output, once it has one. */
export function messageItem(runId: string, text: string, status: MessageItem['status']): MessageItem {
  return { type: 'message', id: `msg_${runId.replace(/-/g, '')}`, status, role: 'assistant', content: [outputText(text)] };
}

export function functionCallItem(call: ToolCall, status: FunctionCallItem['status']): FunctionCallItem {
  return { type: 'function_call', id: `fc_${call.id}`, call_id: call.id, name: call.name, arguments: call.arguments, status };
}

export function outputText(text: string): OutputText {
  return { type: 'output_text', text, annotations: [], logprobs: [] };
}

function seconds(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}

/**
 * The response a run is now: `model` is the agent version that answers it, `usage` its model turns' tokens once it
 * finished. A run waiting for the outputs of its function calls is a `completed` response whose output is those
 * calls, as OpenAI answers one: the next response, with `previous_response_id` and the outputs, goes on with it.
 */
export function toResponseObject(run: AgentRun, tokens: RunTokens | null, pending: PendingAction | null = null): ResponseObject {
  const calls = pending?.type === 'submit_tool_outputs' ? pending.tool_calls : null;
  const status = calls ? 'completed' : responseStatus(run);
  const finished = status === 'completed' || status === 'failed' || status === 'cancelled';
  const output = calls
    ? calls.map((call) => functionCallItem(call, 'completed'))
    : run.status === 'succeeded' && run.output !== null
      ? [messageItem(run.id, run.output, 'completed')]
      : [];
  return {
    id: run.id,
    object: 'response',
    created_at: seconds(run.createdAt),
    completed_at: finished ? seconds(run.updatedAt) : null,
    status,
    model: run.agentVersionId,
    output,
    usage: finished && tokens ? responseUsage(tokens) : null,
    error: status === 'failed' ? { code: 'server_error', message: run.error ?? 'the run failed' } : null,
    incomplete_details: null,
    previous_response_id: null,
    instructions: null,
    metadata: {},
    tools: [],
    tool_choice: 'auto',
    parallel_tool_calls: true,
    text: { format: { type: 'text' } },
    truncation: 'disabled',
    temperature: null,
    top_p: null,
    max_output_tokens: null,
    store: true,
  };
}

function responseUsage(tokens: RunTokens): ResponseUsage {
  return {
    input_tokens: tokens.inputTokens,
    output_tokens: tokens.outputTokens,
    total_tokens: tokens.inputTokens + tokens.outputTokens,
    input_tokens_details: { cached_tokens: tokens.cachedInputTokens },
    output_tokens_details: { reasoning_tokens: tokens.reasoningTokens },
  };
}
