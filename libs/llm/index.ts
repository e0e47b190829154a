export { LlmModule } from './llm.module';
export { LlmService, type ModelProviderInfo } from './llm.service';
export { LlmRequestRejectedError, LlmUnavailableError } from './llm-errors';
export type { LlmProvider, LlmRequest, ToolSpec } from './llm-provider';
export { toolSpecs } from './tools';
export { parseModelId, type ModelId } from './model-id';
export { sentences } from './providers/local.provider';
export { estimateTokens, estimateInputTokens } from './token-counter';
