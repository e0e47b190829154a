import type { LlmRequest } from '../../libs/llm/llm-provider';

/** A model turn's request as the agent-runs lib builds it: brief instructions, one question, nothing else unless given. */
export function llmRequest(model: string, overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    orgId: 'org',
    model,
    instructions: 'Answer briefly.',
    input: 'Where is order 7?',
    temperature: null,
    maxOutputTokens: null,
    tools: [],
    history: [],
    transcript: [],
    responseFormat: null,
    ...overrides,
  };
}
