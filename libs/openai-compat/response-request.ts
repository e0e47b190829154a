import { ErrorCode, MAX_TOOL_OUTPUT_CHARS, PylonError, type ToolOutput } from '@pylon/contracts';

/** A `POST /v1/responses` request this server takes: a model, the input, and how to answer. */
export interface ResponseRequest {
  /** An agent version id, or `agent:<agent_id>` for that agent's latest version. */
  model: string;
  /** The run's input: the text, or the user messages' texts in order. */
  input: string;
  stream: boolean;
  background: boolean;
  /** `previous_response_id` with `function_call_output` items: the outputs the response it names waits for. */
  continues?: { responseId: string; outputs: ToolOutput[] };
}

/** A request refused for one of its parameters: OpenAI's error names it in `param` (and its own `code`, when it has one). */
export class ResponseParamError extends PylonError {
  constructor(
    readonly param: string,
    detail: string,
    code: ErrorCode = ErrorCode.InvalidRequest,
    readonly openAiCode?: string,
  ) {
    super(code, detail);
  }
}

/** What this server takes so far; any other parameter is refused by name rather than ignored. */
const TAKEN = new Set(['model', 'input', 'stream', 'background', 'store', 'previous_response_id']);
/** Open Responses parameters a later version takes: refused, saying so. */
const NOT_YET = new Set([
  'instructions',
  'tools',
  'tool_choice',
  'text',
  'max_output_tokens',
  'metadata',
  'conversation',
  'temperature',
  'top_p',
  'parallel_tool_calls',
  'reasoning',
  'truncation',
  'include',
  'prompt_cache_key',
  'safety_identifier',
  'service_tier',
  'user',
  'max_tool_calls',
  'stream_options',
]);
/** As a run's input (POST /api/v1/agent-runs): the texts a response or completion is asked become one. */
export const MAX_INPUT_CHARS = 100_000;

/** The body as this server reads it, or the first parameter it cannot take. */
export function parseResponseRequest(body: unknown): ResponseRequest {
  const fields = requestFields(body, TAKEN, NOT_YET, (name) => `Unknown parameter: '${name}'.`);
  if (typeof fields.model !== 'string' || fields.model.length === 0 || fields.model.length > 200) {
    throw new ResponseParamError('model', 'model must be an agent version id, or agent:<agent_id>');
  }
  const stream = optionalBoolean(fields, 'stream');
  const background = optionalBoolean(fields, 'background');
  if (fields.store !== undefined && fields.store !== true) {
    throw new ResponseParamError('store', 'every response is stored (it is a durable run): store must be true or absent');
  }
  const previous = fields.previous_response_id;
  if (previous !== undefined && previous !== null) {
    if (typeof previous !== 'string' || previous.length === 0 || previous.length > 200) {
      throw new ResponseParamError('previous_response_id', 'previous_response_id must be the id of a response');
    }
    return { model: fields.model, input: '', stream, background, continues: { responseId: previous, outputs: functionCallOutputs(fields.input) } };
  }
  const input = inputText(fields.input);
  if (input.length === 0) throw new ResponseParamError('input', 'input must hold some text');
  if (input.length > MAX_INPUT_CHARS) throw new ResponseParamError('input', `input must be at most ${MAX_INPUT_CHARS} characters`);
  return { model: fields.model, input, stream, background };
}

/**
 * After `previous_response_id`: the outputs of the function calls that response made, one
 * `{"type": "function_call_output", "call_id", "output"}` item each (its run goes on with them).
 */
function functionCallOutputs(input: unknown): ToolOutput[] {
  if (!Array.isArray(input) || input.length === 0) {
    throw new ResponseParamError('input', 'after previous_response_id, input must be the function_call_output items of its function calls');
  }
  return input.map((item, index) => {
    const param = `input[${index}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw new ResponseParamError(param, `${param} must be a function_call_output item`);
    const { type, call_id: callId, output, ...rest } = item as Record<string, unknown>;
    if (type !== 'function_call_output') {
      throw new ResponseParamError(`${param}.type`, `${param}: after previous_response_id only function_call_output items are supported yet`);
    }
    const extra = Object.keys(rest).find((name) => name !== 'id' && name !== 'status');
    if (extra !== undefined) throw new ResponseParamError(`${param}.${extra}`, `Unknown parameter: '${param}.${extra}'.`);
    if (typeof callId !== 'string' || callId.length === 0 || callId.length > 200)
      throw new ResponseParamError(`${param}.call_id`, `${param}.call_id must be a function call's call_id`);
    if (typeof output !== 'string') throw new ResponseParamError(`${param}.output`, `${param}.output must be a string`);
    if (output.length > MAX_TOOL_OUTPUT_CHARS)
      throw new ResponseParamError(`${param}.output`, `${param}.output must be at most ${MAX_TOOL_OUTPUT_CHARS} characters`);
    return { tool_call_id: callId, output };
  });
}

/**
 * The body's parameters, once each is one this server takes: one it will take later is refused saying so, any
 * other in the words OpenAI refuses an unknown one with (`unknown`).
 */
export function requestFields(
  body: unknown,
  taken: ReadonlySet<string>,
  notYet: ReadonlySet<string>,
  unknown: (name: string) => string,
): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ResponseParamError('body', 'the body must be a JSON object');
  const fields = body as Record<string, unknown>;
  for (const name of Object.keys(fields)) {
    if (notYet.has(name)) throw new ResponseParamError(name, `${name} is not supported by this server yet`);
    if (!taken.has(name)) throw new ResponseParamError(name, unknown(name));
  }
  return fields;
}

function optionalBoolean(fields: Record<string, unknown>, name: string): boolean {
  const value = fields[name];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new ResponseParamError(name, `${name} must be a boolean`);
  return value;
}

/** A string, or a list of user messages (`{role: "user", content}`, content a string or `input_text` parts), joined by blank lines. */
function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input) || input.length === 0) throw new ResponseParamError('input', 'input must be a string or a list of message items');
  return input.map((item, index) => messageText(item, `input[${index}]`)).join('\n\n');
}

function messageText(item: unknown, param: string): string {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new ResponseParamError(param, `${param} must be a message item`);
  const { type, role, content, ...rest } = item as Record<string, unknown>;
  if (type !== undefined && type !== 'message')
    throw new ResponseParamError(`${param}.type`, `${param}: items of type ${String(type)} are not supported yet`);
  if (role !== 'user') throw new ResponseParamError(`${param}.role`, `${param}: only user messages are supported yet`);
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw new ResponseParamError(`${param}.${extra}`, `Unknown parameter: '${param}.${extra}'.`);
  if (typeof content === 'string') return content;
  if (!Array.isArray(content) || content.length === 0)
    throw new ResponseParamError(`${param}.content`, `${param}.content must be a string or a list of input_text parts`);
  return content
    .map((part, index) => {
      const where = `${param}.content[${index}]`;
      if (typeof part !== 'object' || part === null) throw new ResponseParamError(where, `${where} must be a content part`);
      const { type: partType, text } = part as Record<string, unknown>;
      if (partType !== 'input_text' || typeof text !== 'string')
        throw new ResponseParamError(where, `${where} must be {"type": "input_text", "text": …}`);
      return text;
    })
    .join('\n');
}
