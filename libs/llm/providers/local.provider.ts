import { Injectable } from '@nestjs/common';
import type { LlmProvider, LlmRequest } from '../llm-provider';

const LOCAL_MODELS = ['extractive', 'echo'] as const;

/**
 * The offline provider: deterministic, no network, and plain about being no language model.
 * - `local/extractive` answers from the organisation's knowledge base by extraction; until that
 *   knowledge exists it says it has nothing to answer from.
 * - `local/echo` repeats the input, for wiring checks.
 */
@Injectable()
export class LocalLlmProvider implements LlmProvider {
  readonly name = 'local';

  supportsModel(model: string): boolean {
    return (LOCAL_MODELS as readonly string[]).includes(model);
  }

  async generate(request: LlmRequest): Promise<string> {
    if (request.model === 'echo') {
      return `[local/echo: offline test provider, not a language model] ${request.input}`;
    }
    return [
      '[local/extractive: offline extractive answerer, not a language model]',
      `I found nothing in this organisation's knowledge base to answer from, so I cannot answer: "${preview(request.input)}".`,
    ].join('\n');
  }
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
