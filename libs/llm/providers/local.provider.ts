import { Injectable } from '@nestjs/common';
import { KNOWLEDGE_SEARCH_TOOL, type KnowledgeToolHit, type LlmTurn } from '@pylon/contracts';
import type { LlmProvider, LlmRequest } from '../llm-provider';
import { composeExtractiveAnswer } from './extractive-answer';

const LOCAL_MODELS = ['extractive', 'echo'] as const;
const EXTRACTIVE_LABEL = '[local/extractive: offline extractive answerer, not a language model]';

/**
 * The offline provider: deterministic, no network, and plain about being no language model.
 * - `local/extractive` searches the organisation's knowledge (through the knowledge_search tool, as a
 *   model would) and answers with the best-matching sentences, citing their doc_ids; it says so when
 *   it has nothing to answer from.
 * - `local/echo` repeats the input, for wiring checks.
 */
@Injectable()
export class LocalLlmProvider implements LlmProvider {
  readonly name = 'local';
  readonly answersInProcess = true;
  readonly configured = true;
  readonly models = LOCAL_MODELS;

  supportsModel(model: string): boolean {
    return (LOCAL_MODELS as readonly string[]).includes(model);
  }

  async generate(request: LlmRequest): Promise<LlmTurn> {
    const turn = this.answer(request);
    if (turn.kind === 'answer') for (const sentence of sentences(turn.text)) request.onDelta?.(sentence);
    return turn;
  }

  private answer(request: LlmRequest): LlmTurn {
    if (request.model === 'echo') {
      return { kind: 'answer', text: `[local/echo: offline test provider, not a language model] ${request.input}` };
    }
    const canSearch = request.tools.some((tool) => tool.name === KNOWLEDGE_SEARCH_TOOL);
    if (!canSearch) {
      return {
        kind: 'answer',
        text: `${EXTRACTIVE_LABEL}\nThis agent version has no knowledge_search tool enabled, so I have nothing to answer "${preview(request.input)}" from.`,
      };
    }
    const results = request.transcript.filter((entry) => entry.role === 'tool');
    if (results.length === 0) {
      return {
        kind: 'tool_calls',
        calls: [{ id: 'local-search-1', name: KNOWLEDGE_SEARCH_TOOL, arguments: JSON.stringify({ query: request.input }) }],
      };
    }
    const hits = results.flatMap((entry) => parseHits(entry.content));
    const answer = composeExtractiveAnswer(request.input, hits);
    return {
      kind: 'answer',
      text: answer
        ? `${EXTRACTIVE_LABEL}\n${answer}`
        : `${EXTRACTIVE_LABEL}\nI found nothing in this organisation's knowledge base to answer from, so I cannot answer: "${preview(request.input)}".`,
    };
  }
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

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
