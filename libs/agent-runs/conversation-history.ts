import type { HistoryEntry, ToolCall } from '@pylon/contracts';
import { estimateTokens } from '@pylon/llm';
import type { ConversationItem } from './repositories/conversation.repository';

function itemTokens(item: ConversationItem): number {
  return estimateTokens(JSON.stringify(item.data)) + 4;
}

/** How the summary of earlier turns opens, as the model sees it. */
export const SUMMARY_HEADING = 'Summary of the earlier conversation:';

/** The history as the model sees it, and how many of the conversation's items were left out. */
export interface ConversationHistory {
  entries: HistoryEntry[];
  included: number;
  omitted: number;
}

/** The latest summary of the conversation's earlier turns: its text and the first turn it does not cover. */
export interface ConversationSummary {
  text: string;
  turnsBefore: number;
}

/** The latest `compaction` item: the turns before its `turns_before` are seen through its summary. */
export function latestSummary(items: readonly ConversationItem[]): ConversationSummary | null {
  const compaction = [...items].reverse().find((item) => item.type === 'compaction');
  return compaction ? { text: String(compaction.data.text), turnsBefore: Number(compaction.data.turns_before) } : null;
}

/** The items a history is made of: those the latest summary does not cover (and no summary item itself). */
function unsummarised(items: readonly ConversationItem[], summary: ConversationSummary | null): ConversationItem[] {
  return items.filter((item) => item.type !== 'compaction' && (!summary || item.turn >= summary.turnsBefore));
}

/**
 * The earlier turns' items as model messages: the latest summary of the oldest turns first (a `compaction`
 * item), then the newest items kept within `budgetTokens`: the oldest items go first. A tool call whose output
 * was left out (or never came: a turn that failed) is left out with it, and so is an output whose call was,
 * since models refuse one without the other.
 */
export function conversationHistory(items: readonly ConversationItem[], budgetTokens: number): ConversationHistory {
  const summary = latestSummary(items);
  const open = unsummarised(items, summary);
  const summaryEntry: HistoryEntry | null = summary ? { role: 'user', content: `${SUMMARY_HEADING}\n${summary.text}` } : null;
  let start = open.length;
  let spent = summaryEntry ? estimateTokens(summaryEntry.content) + 4 : 0;
  while (start > 0 && spent + itemTokens(open[start - 1]!) <= budgetTokens) spent += itemTokens(open[--start]!);
  const kept = open.slice(start);
  // A call is paired with its output within its own run: call ids are only unique there.
  const key = (item: ConversationItem) => `${item.runId}/${String(item.data.call_id)}`;
  const outputs = new Set(kept.filter((item) => item.type === 'tool_output').map(key));
  const calls = new Set(kept.filter((item) => item.type === 'tool_call' && outputs.has(key(item))).map(key));
  const entries: HistoryEntry[] = summaryEntry ? [summaryEntry] : [];
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
  return { entries, included, omitted: open.length - included };
}

/** What a new summary folds: the summary so far and the oldest whole turns after it, up to `turnsBefore`. */
export interface CompactionPlan {
  previous: string | null;
  items: ConversationItem[];
  turnsBefore: number;
}

/**
 * When the history does not fit `budgetTokens`: the oldest whole turns to fold into a new summary, so that the
 * turns left (the newest, within half the budget) and the summary fit. Null when everything fits, or when no
 * whole turn can be folded (the newest turn alone is too long).
 */
export function compactionPlan(items: readonly ConversationItem[], budgetTokens: number): CompactionPlan | null {
  const summary = latestSummary(items);
  const open = unsummarised(items, summary);
  const total = open.reduce((sum, item) => sum + itemTokens(item), 0) + (summary ? estimateTokens(summary.text) : 0);
  if (total <= budgetTokens || open.length === 0) return null;
  let keptFrom = open.length;
  let spent = 0;
  while (keptFrom > 0 && spent + itemTokens(open[keptFrom - 1]!) <= budgetTokens / 2) spent += itemTokens(open[--keptFrom]!);
  // Whole turns only: a turn that did not fit whole is folded whole.
  const first = open[keptFrom];
  const split = !!first && keptFrom > 0 && open[keptFrom - 1]!.turn === first.turn;
  const turnsBefore = !first ? open.at(-1)!.turn + 1 : split ? first.turn + 1 : first.turn;
  const folded = open.filter((item) => item.turn < turnsBefore);
  if (folded.length === 0) return null;
  return { previous: summary?.text ?? null, items: folded, turnsBefore };
}
