import { NotFoundError } from './errors.js';
import { TERMINAL_EVENTS, type StreamOptions } from './run-stream.js';
import type { RequestOptions } from './transport.js';
import type { AgentRun, AgentRuns, RequiredAction, RequiredToolCall } from './resources/agent-runs.js';

/** What a tool handler and the approve callback are told besides the call's arguments. */
export interface ToolCallContext {
  runId: string;
  /** The call as the run asks for it: its id, the tool's name and the model's arguments as JSON text. */
  call: RequiredToolCall;
  signal?: AbortSignal;
}

/**
 * Runs one function tool here: it gets the call's arguments (parsed from the model's JSON) and returns the
 * output, a string as is and anything else as JSON. What it throws is sent as the output `{"error": message}`,
 * so the model hears it. Its `args` are whatever the tool's JSON Schema says, hence `any`.
 */
export type ToolHandler = (args: any, context: ToolCallContext) => unknown;

/** `true` approves the call, `false` denies it; a denial's `reason` is told to the model. */
export type ToolApprovalDecision = boolean | { approve: boolean; reason?: string };

export interface RunToolsOptions extends Omit<RequestOptions, 'query' | 'body' | 'repeatable'>, Omit<StreamOptions, 'after'> {
  /** The function tools run here, by name. A call of a tool without a handler is answered `{"error": …}`. */
  tools?: Record<string, ToolHandler>;
  /** Decides on each call waiting for approval (knowledge_search with `require_approval: "always"`); without it every call is approved. */
  approve?: (call: RequiredToolCall, context: ToolCallContext) => ToolApprovalDecision | Promise<ToolApprovalDecision>;
  /** Take the run as a turn of this conversation (`conversations.runs.create`) instead of a run of its own. */
  conversationId?: string;
}

/**
 * Follows a run's event stream to its end, answering each `requires_action` with the local tool handlers
 * or the approve callback; answers the finished run. An action is answered only while the run still waits
 * for it (`requiredAction`), so a stream that replays old events (the same Idempotency-Key again, to pick
 * up a run after a crash) answers only what is pending.
 */
export async function driveRun(runs: AgentRuns, runId: string, options: RunToolsOptions): Promise<AgentRun> {
  const { tools = {}, approve, signal, maxReconnects, headers, maxRetries, timeout } = options;
  const requestOptions: RequestOptions = { headers, maxRetries, timeout, signal };
  for await (const event of runs.stream(runId, { signal, maxReconnects })) {
    if (event.type === 'requires_action') {
      const action = await stillPending(runs, runId, event.data as RequiredAction, requestOptions);
      if (action?.type === 'submit_tool_outputs') {
        const tool_outputs = [];
        for (const call of action.tool_calls) {
          tool_outputs.push({ tool_call_id: call.id, output: await runTool(tools, call, { runId, call, signal }) });
        }
        signal?.throwIfAborted();
        await runs.submitToolOutputs(runId, { tool_outputs }, requestOptions);
      } else if (action?.type === 'approve_tool_calls') {
        const approvals = [];
        for (const call of action.tool_calls) {
          const decision = approve ? await approve(call, { runId, call, signal }) : true;
          const { approve: approved, reason } = typeof decision === 'boolean' ? { approve: decision, reason: undefined } : decision;
          approvals.push({ tool_call_id: call.id, approve: approved, ...(reason !== undefined ? { reason } : {}) });
        }
        signal?.throwIfAborted();
        await runs.approveToolCalls(runId, { approvals }, requestOptions);
      } else if (action) {
        throw new Error(`runTools cannot answer a required action of type ${String((action as { type: unknown }).type)}`);
      }
    }
    if (TERMINAL_EVENTS.has(event.type)) return event.data as AgentRun;
  }
  throw new Error('the run stream ended without a terminal event');
}

/** The action of a `requires_action` event if the run still waits for it (not answered, expired or superseded since). */
async function stillPending(runs: AgentRuns, runId: string, announced: RequiredAction, options: RequestOptions): Promise<RequiredAction | null> {
  const pending = await runs.requiredAction(runId, options).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
  const ids = (action: RequiredAction) => action.tool_calls.map((call) => call.id).join('\n');
  return pending && pending.type === announced.type && ids(pending) === ids(announced) ? pending : null;
}

/** The output of one call: the handler's answer as text, or `{"error": …}` when there is no handler, the arguments are no JSON or it threw. */
async function runTool(tools: Record<string, ToolHandler>, call: RequiredToolCall, context: ToolCallContext): Promise<string> {
  const handler = Object.hasOwn(tools, call.name) ? tools[call.name] : undefined;
  if (!handler) return JSON.stringify({ error: `no tool named ${call.name} here (there are: ${Object.keys(tools).join(', ') || 'none'})` });
  try {
    const result = await handler(call.arguments ? JSON.parse(call.arguments) : {}, context);
    return typeof result === 'string' ? result : (JSON.stringify(result ?? null) ?? 'null');
  } catch (error) {
    context.signal?.throwIfAborted();
    return JSON.stringify({ error: error instanceof Error ? error.message : String(error) });
  }
}
