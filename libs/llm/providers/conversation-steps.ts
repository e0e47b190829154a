import type { HistoryEntry, ToolCall, TranscriptEntry } from '@pylon/contracts';
import type { LlmRequest } from '../llm-provider';

/** One step of what a model is shown, in order; each provider writes the steps in its own wire form. */
export type ConversationStep =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string }
  | { kind: 'tool_calls'; text?: string; calls: ToolCall[] }
  | { kind: 'tool_result'; callId: string; name: string; content: string };

/**
 * The conversation's earlier turns, the input, this run's tool calls and their results, then (on the
 * repair turn) the answer that missed the schema and the request to answer again. The instructions are not
 * a step: every provider takes them apart from the messages.
 */
export function conversationSteps(request: LlmRequest): ConversationStep[] {
  const names = new Map<string, string>();
  const steps: ConversationStep[] = [];
  const add = (entry: HistoryEntry | TranscriptEntry) => {
    if (entry.role === 'user') steps.push({ kind: 'user', text: entry.content });
    else if (entry.role === 'assistant' && !('toolCalls' in entry)) steps.push({ kind: 'assistant', text: entry.content });
    else if (entry.role === 'assistant') {
      for (const call of entry.toolCalls) names.set(call.id, call.name);
      steps.push({ kind: 'tool_calls', calls: entry.toolCalls, ...(entry.content ? { text: entry.content } : {}) });
    } else steps.push({ kind: 'tool_result', callId: entry.toolCallId, name: names.get(entry.toolCallId) ?? 'tool', content: entry.content });
  };
  request.history.forEach(add);
  steps.push({ kind: 'user', text: request.input });
  request.transcript.forEach(add);
  if (request.repair) {
    steps.push({ kind: 'assistant', text: request.repair.answer });
    steps.push({ kind: 'user', text: repairPrompt(request) });
  }
  return steps;
}

/** What the repair turn asks. */
export function repairPrompt(request: LlmRequest): string {
  return `That answer does not match the JSON schema ${request.responseFormat?.name ?? ''}: ${request.repair?.fault ?? ''}. Answer again with only JSON that matches the schema.`;
}

/** A call's arguments as the JSON object Anthropic and Gemini take (arguments that are not a JSON object go as `{}`). */
export function argumentsObject(args: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
