export { LlmModule } from './llm.module';
export { LlmService } from './llm.service';
export { LlmRequestRejectedError, LlmUnavailableError } from './llm-errors';
export type { LlmProvider, LlmRequest } from './llm-provider';
export { parseModelId, type ModelId } from './model-id';
