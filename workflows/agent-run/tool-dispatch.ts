import {
  refusedCallOutput,
  type AcceptedAnswer,
  type AgentRunWorkflowInput,
  type PlannedToolCall,
  type ToolCall,
  type TranscriptEntry,
} from '@pylon/contracts';
import { mcpActivities } from '../mcp-tools';
import { tools } from './activity-options';
import type { ActiveTime } from './active-time';
import type { RequiredActions } from './required-actions';

/** The call as the model made it, without who runs it. */
export function asModelCall({ id, name, arguments: args }: PlannedToolCall): ToolCall {
  return { id, name, arguments: args };
}

/** The tools' results in the calls' order, and the customer's outputs among them for the next turn to record. */
export interface ToolResults {
  results: TranscriptEntry[];
  answered?: AcceptedAnswer;
}

/**
 * Runs the model's tool calls and hands back their results, in the calls' order: Pylon's own tools as
 * activities (knowledge_search, MCP), after a person approved them when the version says so (the approval is
 * recorded before they run; a refused call tells the model why); the customer's function tools by waiting
 * for their outputs, which the next model turn records. Only the time tools work counts against the run
 * timeout, not the time the run waits for a person or the caller.
 */
export function toolDispatch(run: AgentRunWorkflowInput, clock: ActiveTime, actions: RequiredActions) {
  const mcp = mcpActivities(run);
  const runPylonTool = (call: PlannedToolCall) =>
    clock.counting(() => (call.mcp ? mcp.callMcpTool({ ...run, call }) : tools.runTool({ ...run, call })));

  return async function runTools(calls: PlannedToolCall[]): Promise<ToolResults> {
    const results = new Map<string, string>();
    const gated = calls.filter((call) => call.runner === 'pylon' && call.approval);
    const approved = gated.length > 0 ? await actions.waitFor('approve_tool_calls', gated.map(asModelCall)) : null;
    if (approved) await actions.record(approved);
    const approvals = approved?.answer;
    for (const call of calls.filter((candidate) => candidate.runner === 'pylon')) {
      const decision = approvals?.type === 'approve_tool_calls' ? approvals.approvals.find((a) => a.tool_call_id === call.id) : undefined;
      results.set(call.id, decision && !decision.approve ? refusedCallOutput(decision.reason) : await runPylonTool(call));
    }
    const customers = calls.filter((call) => call.runner === 'customer');
    const answered = customers.length > 0 ? await actions.waitFor('submit_tool_outputs', customers.map(asModelCall)) : undefined;
    if (answered?.answer.type === 'submit_tool_outputs')
      for (const output of answered.answer.tool_outputs) results.set(output.tool_call_id, output.output);
    return {
      results: calls.map((call) => ({ role: 'tool', toolCallId: call.id, content: results.get(call.id) ?? '' })),
      ...(answered && { answered }),
    };
  };
}
