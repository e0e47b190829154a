import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { KNOWLEDGE_SEARCH_TOOL, type HistoryEntry, type KnowledgeToolHit, type LlmTurn, type ToolCall } from '@pylon/contracts';
import type { LlmProvider, LlmRequest, ToolSpec } from '../llm-provider';
import { composeExtractiveAnswer, recallFromConversation } from './extractive-answer';
import { argumentsFromInput } from './function-arguments';
import { fillSchema, unfillableSchemaFault } from './structured-answer';
import { toolsToCall } from './tool-choice';

const LOCAL_MODELS = ['extractive', 'echo'] as const;
const EXTRACTIVE_LABEL = '[local/extractive: offline extractive answerer, not a language model]';
/** What the offline models keep of a conversation: its history is cut to this many tokens (four characters each). */
const LOCAL_CONTEXT_TOKENS = 8_000;

/**
 * The offline provider: deterministic in what it says, no network, and plain about being no language model.
 * - `local/extractive` calls the tools a model would: the function and MCP tools the input names (an
 *   MCP tool as `<server_label>.<tool>` or by its own name, see tool-choice.ts; arguments filled from the
 *   input, see function-arguments.ts) and knowledge_search. It answers by quoting what
 *   the tools returned, the sentences of the conversation's earlier turns that share the most terms
 *   with the input, and the best-matching sentences of the knowledge base with their doc_ids; it says
 *   so when it has nothing to answer from.
 * - `local/echo` repeats the input, for wiring checks.
 */
@Injectable()
export class LocalLlmProvider implements LlmProvider {
  readonly name = 'local';
  readonly answersInProcess = true;
  readonly configured = true;
  readonly keyed = false;
  readonly models = LOCAL_MODELS;

  supportsModel(model: string): boolean {
    return (LOCAL_MODELS as readonly string[]).includes(model);
  }

  contextTokens(): number {
    return LOCAL_CONTEXT_TOKENS;
  }

  responseSchemaFault(_model: string, schema: Record<string, unknown>): string | null {
    const fault = unfillableSchemaFault(schema);
    return fault && `local/* models answer only object schemas of strings, numbers, booleans and enums: ${fault}`;
  }

  async generate(request: LlmRequest): Promise<LlmTurn> {
    const { turn, grounded } = this.answer(request);
    if (turn.kind !== 'answer') return turn;
    const text = request.responseFormat
      ? JSON.stringify(fillSchema(request.responseFormat.schema, request.input, withoutLabel(turn.text), grounded))
      : turn.text;
    for (const sentence of request.responseFormat ? [text] : sentences(text)) request.onDelta?.(sentence);
    return { kind: 'answer', text };
  }

  /** Its turn, and whether an answer drew on anything (tool outputs, the conversation, the knowledge base). */
  private answer(request: LlmRequest): { turn: LlmTurn; grounded: boolean } {
    if (request.model === 'echo') {
      return { turn: { kind: 'answer', text: `[local/echo: offline test provider, not a language model] ${request.input}` }, grounded: false };
    }
    const calledAlready = request.transcript.some((entry) => entry.role === 'assistant');
    if (!calledAlready) {
      const calls = toolsToCall(request.input, request.tools).map((tool) => callOf(tool, request.input));
      if (calls.length > 0) return { turn: { kind: 'tool_calls', calls }, grounded: false };
    }
    const results = toolResults(request);
    const parts: string[] = [];
    for (const { call, content } of results.filter(({ call }) => call.name !== KNOWLEDGE_SEARCH_TOOL)) {
      parts.push(`${call.name} returned: ${preview(content, 2_000)}`);
    }
    const recalled = recallFromConversation(request.input, conversationSentences(request.history));
    if (recalled) parts.push(recalled);
    const searches = results.filter(({ call }) => call.name === KNOWLEDGE_SEARCH_TOOL);
    const refused = searches.map(({ content }) => refusal(content)).filter((reason): reason is string => reason !== null);
    for (const reason of refused) parts.push(`The knowledge search did not run: ${reason}`);
    const knowledge = composeExtractiveAnswer(
      request.input,
      searches.flatMap(({ content }) => parseHits(content)),
    );
    if (knowledge) parts.push(knowledge);
    if (parts.length > 0) return { turn: { kind: 'answer', text: [EXTRACTIVE_LABEL, ...parts].join('\n') }, grounded: true };
    const canSearch = request.tools.some((tool) => tool.name === KNOWLEDGE_SEARCH_TOOL);
    const text = canSearch
      ? `${EXTRACTIVE_LABEL}\nI found nothing in this organisation's knowledge base to answer from, so I cannot answer: "${preview(request.input, 200)}".`
      : `${EXTRACTIVE_LABEL}\nThis agent version has no knowledge_search tool enabled, so I have nothing to answer "${preview(request.input, 200)}" from.`;
    return { turn: { kind: 'answer', text }, grounded: false };
  }
}

/** The answer's text without the line that says what this model is (a structured answer is data, and its run names the model). */
function withoutLabel(text: string): string {
  return text.startsWith('[local/') ? text.slice(text.indexOf('\n') + 1) : text;
}

function callOf(tool: ToolSpec, input: string): ToolCall {
  const args = tool.name === KNOWLEDGE_SEARCH_TOOL ? { query: input } : argumentsFromInput(input, tool.parameters);
  return { id: `call_${randomUUID()}`, name: tool.name, arguments: JSON.stringify(args) };
}

function toolResults(request: LlmRequest): Array<{ call: ToolCall; content: string }> {
  const calls = new Map(request.transcript.flatMap((entry) => (entry.role === 'assistant' ? entry.toolCalls : [])).map((call) => [call.id, call]));
  return request.transcript.flatMap((entry) => {
    const call = entry.role === 'tool' ? calls.get(entry.toolCallId) : undefined;
    return call && entry.role === 'tool' ? [{ call, content: entry.content }] : [];
  });
}

/** What was said earlier in the conversation, as statements to recall (questions and this model's own labels left out). */
function conversationSentences(history: readonly HistoryEntry[]): string[] {
  return history.flatMap((entry) => {
    if (entry.role === 'tool' || (entry.role === 'assistant' && 'toolCalls' in entry)) return [];
    return entry.content
      .split('\n')
      .filter(
        (line) =>
          !/^(\[local\/|From (your knowledge base|this conversation):|Sources:|The knowledge search did not run|Summary of the earlier conversation:)/.test(
            line,
          ),
      )
      .map((line) => line.replace(/^- /, '').replace(/ \[doc [0-9a-f-]+\]$/, ''))
      .flatMap((line) => sentences(line))
      .map((sentence) => sentence.trim())
      .filter((sentence) => sentence.length > 2 && !sentence.endsWith('?'));
  });
}

/** The text cut after each sentence end (and line break), so the pieces joined are the text. */
export function sentences(text: string): string[] {
  return text.match(/[^.!?\n]*(?:[.!?]+["')\]]*\s*|\n+|$)/g)?.filter((piece) => piece.length > 0) ?? [text];
}

function parseHits(content: string): KnowledgeToolHit[] {
  try {
    const parsed = JSON.parse(content) as { matches?: KnowledgeToolHit[] };
    return Array.isArray(parsed.matches) ? parsed.matches : [];
  } catch {
    return [];
  }
}

function refusal(content: string): string | null {
  try {
    const parsed = JSON.parse(content) as { error?: unknown };
    return typeof parsed.error === 'string' ? parsed.error : null;
  } catch {
    return null;
  }
}

function preview(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
