export { OpenAiCompatModule } from './openai-compat.module';
export { ResponsesService, ModelNotFound, type InputItemList, type InputMessage, type StartedResponse } from './responses.service';
export { parseResponseRequest, ResponseParamError, type ResponseRequest } from './response-request';
export type { ResponseObject } from './response-object';
export type { ResponseStreamEvent } from './response-events';
export { ModelsService, type ModelObject } from './models.service';
export { ChatCompletionsService, type ChatCompletion, type ChatCompletionChunk, type ChatStreamError } from './chat-completions.service';
export { parseChatCompletionRequest, type ChatCompletionRequest } from './chat-request';
