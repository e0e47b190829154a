import { MAX_INPUT_CHARS, requestFields, ResponseParamError, type ResponseRequest } from './response-request';

/** A `POST /v1/chat/completions` request this server takes, as the response it becomes, and whether the stream ends with usage. */
export interface ChatCompletionRequest {
  response: ResponseRequest;
  includeUsage: boolean;
}

const TAKEN = new Set(['model', 'messages', 'stream', 'stream_options', 'n']);
/** Chat Completions parameters a later version takes: refused, saying so. */
const NOT_YET = new Set([
  'tools',
  'tool_choice',
  'functions',
  'function_call',
  'response_format',
  'temperature',
  'top_p',
  'max_tokens',
  'max_completion_tokens',
  'stop',
  'presence_penalty',
  'frequency_penalty',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'seed',
  'metadata',
  'store',
  'parallel_tool_calls',
  'modalities',
  'audio',
  'prediction',
  'reasoning_effort',
  'service_tier',
  'user',
  'web_search_options',
]);

/** The body as this server reads it (the user messages' texts, in order, are the run's input), or the first parameter it cannot take. */
export function parseChatCompletionRequest(body: unknown): ChatCompletionRequest {
  const fields = requestFields(body, TAKEN, NOT_YET, (name) => `Unrecognized request argument supplied: ${name}`);
  if (typeof fields.model !== 'string' || fields.model.length === 0 || fields.model.length > 200) {
    throw new ResponseParamError('model', 'model must be an agent version id, or agent:<agent_id>');
  }
  if (fields.stream !== undefined && fields.stream !== null && typeof fields.stream !== 'boolean')
    throw new ResponseParamError('stream', 'stream must be a boolean');
  if (fields.n !== undefined && fields.n !== null && fields.n !== 1) throw new ResponseParamError('n', 'n must be 1: a run answers once');
  const includeUsage = streamUsage(fields.stream_options, fields.stream === true);
  if (!Array.isArray(fields.messages) || fields.messages.length === 0) throw new ResponseParamError('messages', 'messages must be a non-empty list');
  const input = fields.messages.map((message, index) => messageText(message, `messages[${index}]`)).join('\n\n');
  if (input.length === 0) throw new ResponseParamError('messages', 'the messages must hold some text');
  if (input.length > MAX_INPUT_CHARS) throw new ResponseParamError('messages', `the messages must be at most ${MAX_INPUT_CHARS} characters`);
  return { response: { model: fields.model, input, stream: fields.stream === true, background: false }, includeUsage };
}

function streamUsage(options: unknown, stream: boolean): boolean {
  if (options === undefined || options === null) return false;
  if (!stream) throw new ResponseParamError('stream_options', 'stream_options is only allowed with stream: true');
  if (typeof options !== 'object' || Array.isArray(options)) throw new ResponseParamError('stream_options', 'stream_options must be an object');
  const { include_usage: includeUsage, ...rest } = options as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw new ResponseParamError(`stream_options.${extra}`, `Unrecognized request argument supplied: stream_options.${extra}`);
  if (includeUsage !== undefined && typeof includeUsage !== 'boolean')
    throw new ResponseParamError('stream_options.include_usage', 'include_usage must be a boolean');
  return includeUsage === true;
}

function messageText(message: unknown, param: string): string {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) throw new ResponseParamError(param, `${param} must be a message`);
  const { role, content, name, ...rest } = message as Record<string, unknown>;
  if (role !== 'user')
    throw new ResponseParamError(`${param}.role`, `${param}: only user messages are supported yet (the agent version has the instructions)`);
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw new ResponseParamError(`${param}.${extra}`, `Unrecognized request argument supplied: ${param}.${extra}`);
  if (name !== undefined && typeof name !== 'string') throw new ResponseParamError(`${param}.name`, `${param}.name must be a string`);
  if (typeof content === 'string') return content;
  if (!Array.isArray(content) || content.length === 0)
    throw new ResponseParamError(`${param}.content`, `${param}.content must be a string or a list of text parts`);
  return content
    .map((part, index) => {
      const where = `${param}.content[${index}]`;
      const { type, text } = (typeof part === 'object' && part !== null ? part : {}) as Record<string, unknown>;
      if (type !== 'text' || typeof text !== 'string') throw new ResponseParamError(where, `${where} must be {"type": "text", "text": …}`);
      return text;
    })
    .join('\n');
}
