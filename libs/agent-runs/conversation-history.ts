import type { HistoryEntry, ToolCall } from '@pylon/contracts';
import type { ConversationItem } from './repositories/conversation.repository';

/** A rough token count (four characters a token), enough to keep a history inside a model's context. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function itemTokens(item: ConversationItem): number {
  return estimateTokens(JSON.stringify(item.data)) + 4;
}

/** The history as the model sees it, and how many of the conversation's items were left out. */
export interface ConversationHistory {
  entries: HistoryEntry[];
  included: number;
  omitted: number;
}

/**
 * The earlier turns' items as model messages, newest kept within `budgetTokens`: the oldest items go
 * first. A tool call whose output was left out (or never came: a turn that failed) is left out with it,
 * and so is an output whose call was, since models refuse one without the other.
 */
export function conversationHistory(items: readonly ConversationItem[], budgetTokens: number): ConversationHistory {
  let start = items.length;
  let spent = 0;
  while (start > 0 && spent + itemTokens(items[start - 1]!) <= budgetTokens) spent += itemTokens(items[--start]!);
  const kept = items.slice(start);
  // A call is paired with its output within its own run: call ids are only unique there.
  const key = (item: ConversationItem) => `${item.runId}/${String(item.data.call_id)}`;
  const outputs = new Set(kept.filter((item) => item.type === 'tool_output').map(key));
  const calls = new Set(kept.filter((item) => item.type === 'tool_call' && outputs.has(key(item))).map(key));
  const entries: HistoryEntry[] = [];
  let included = 0;
  let pendingCalls: { runId: string; calls: ToolCall[] } | null = null;
  const flushCalls = () => {
    if (pendingCalls) entries.push({ role: 'assistant', toolCalls: pendingCalls.calls });
    pendingCalls = null;
  };
  for (const item of kept) {
    const callId = String(item.data.call_id);
    if (item.type === 'tool_call') {
      if (!calls.has(key(item))) continue;
      if (pendingCalls && pendingCalls.runId !== item.runId) flushCalls();
      pendingCalls ??= { runId: item.runId, calls: [] };
      pendingCalls.calls.push({ id: callId, name: String(item.data.name), arguments: String(item.data.arguments) });
      included++;
      continue;
    }
    if (item.type === 'tool_output') {
      if (!calls.has(key(item))) continue;
      flushCalls();
      entries.push({ role: 'tool', toolCallId: callId, content: String(item.data.output) });
      included++;
      continue;
    }
    flushCalls();
    entries.push(item.type === 'input' ? { role: 'user', content: String(item.data.text) } : { role: 'assistant', content: String(item.data.text) });
    included++;
  }
  flushCalls();
  return { entries, included, omitted: items.length - included };
}
