import Anthropic from '@anthropic-ai/sdk';
import type { PylonConfig } from '@pylon/config';
import type { LlmTurn, ToolCall, TurnUsage } from '@pylon/contracts';
import { LlmRequestRejectedError, LlmUnavailableError } from '../llm-errors';
import type { LlmRequest } from '../llm-provider';
import { argumentsObject, conversationSteps, type ConversationStep } from './conversation-steps';
import { HostedProvider } from './hosted-provider';
import { providerHttpFailure } from './provider-failure';
import { WireToolNames } from './wire-tool-names';

type Message = Anthropic.MessageParam;
type Block = Anthropic.ContentBlockParam;

/** Claude's models take 200 000 tokens of context (1 000 000 on some, which this does not assume). */
const CONTEXT_TOKENS = 200_000;
/** Anthropic requires max_tokens; a version without max_output_tokens gets this many. */
const DEFAULT_MAX_TOKENS = 4_096;

/**
 * The steps as Messages: user and assistant turns alternating, an assistant's tool calls as `tool_use`
 * blocks and all their results in the next user turn as `tool_result` blocks (a turn's blocks merged, as
 * the API requires).
 */
function toMessages(steps: ConversationStep[], names: WireToolNames): Message[] {
  const messages: Message[] = [];
  const push = (role: 'user' | 'assistant', blocks: Block[]) => {
    const last = messages[messages.length - 1];
    if (last?.role === role) (last.content as Block[]).push(...blocks);
    else messages.push({ role, content: blocks } as Message);
  };
  for (const step of steps) {
    if (step.kind === 'user') push('user', [{ type: 'text', text: step.text }]);
    else if (step.kind === 'assistant') push('assistant', [{ type: 'text', text: step.text }]);
    else if (step.kind === 'tool_calls')
      push('assistant', [
        ...(step.text ? [{ type: 'text' as const, text: step.text }] : []),
        ...step.calls.map((call) => ({
          type: 'tool_use' as const,
          id: call.id,
          name: names.wire(call.name),
          input: argumentsObject(call.arguments),
        })),
      ]);
    else push('user', [{ type: 'tool_result', tool_use_id: step.callId, content: step.content }]);
  }
  return messages;
}

/**
 * Anthropic's Messages API through its official SDK (`@anthropic-ai/sdk`), streamed: text deltas to `onDelta`,
 * tool calls gathered from `tool_use` blocks and their `input_json_delta`s, the usage from `message_start` and
 * `message_delta`. Structured output is native (`output_config.format`, a JSON schema), and Pylon still checks and
 * repairs the answer. The SDK's own retries are off: Temporal retries the activity, after
 * the Retry-After a 429 or 529 gives.
 */
export class AnthropicLlmProvider extends HostedProvider<Anthropic> {
  readonly name = 'anthropic';
  protected readonly keyVariable = 'ANTHROPIC_API_KEY';

  constructor(private readonly config: PylonConfig) {
    super();
  }

  protected get operatorKey(): string | undefined {
    return this.config.anthropicApiKey;
  }

  protected makeClient(apiKey: string): Anthropic {
    return new Anthropic({
      apiKey,
      ...(this.config.anthropicBaseUrl ? { baseURL: this.config.anthropicBaseUrl } : {}),
      timeout: this.config.llmTimeoutMs,
      maxRetries: 0,
    });
  }

  async checkKey(apiKey: string, signal?: AbortSignal): Promise<void> {
    try {
      await this.clientFor(apiKey).models.list({ limit: 1 }, { signal });
    } catch (error) {
      throw classify(error);
    }
  }

  contextTokens(): number {
    return CONTEXT_TOKENS;
  }

  /** Anthropic's own count (`POST /v1/messages/count_tokens`) of the system prompt, messages, tools and format. */
  async countInputTokens(request: LlmRequest): Promise<number> {
    const names = new WireToolNames(request.tools.map((tool) => tool.name));
    try {
      const counted = await this.clientFor(request.apiKey).messages.countTokens(messageParams(request, names), { signal: request.signal });
      return counted.input_tokens;
    } catch (error) {
      throw request.signal?.aborted ? error : classify(error);
    }
  }

  async generate(request: LlmRequest): Promise<LlmTurn> {
    const client = this.clientFor(request.apiKey);
    const names = new WireToolNames(request.tools.map((tool) => tool.name));
    try {
      const stream = await client.messages.create(
        {
          ...messageParams(request, names),
          max_tokens: request.maxOutputTokens ?? DEFAULT_MAX_TOKENS,
          stream: true,
          ...(request.temperature !== null ? { temperature: request.temperature } : {}),
        },
        { signal: request.signal },
      );
      let text: string | undefined;
      let inputTokens = 0;
      let outputTokens = 0;
      let cachedInputTokens = 0;
      let reasoningTokens = 0;
      let stopped = false;
      const calls = new Map<number, ToolCall & { json: string }>();
      for await (const event of stream) {
        if (event.type === 'message_start') {
          const usage = event.message.usage;
          inputTokens = usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
          cachedInputTokens = usage.cache_read_input_tokens ?? 0;
          outputTokens = usage.output_tokens;
        } else if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
          calls.set(event.index, { id: event.content_block.id, name: names.own(event.content_block.name), arguments: '', json: '' });
        } else if (event.type === 'content_block_delta') {
          if (event.delta.type === 'text_delta' && event.delta.text.length > 0) {
            text = (text ?? '') + event.delta.text;
            request.onDelta?.(event.delta.text);
          } else if (event.delta.type === 'input_json_delta') {
            const call = calls.get(event.index);
            if (call) call.json += event.delta.partial_json;
          }
        } else if (event.type === 'message_delta') {
          outputTokens = event.usage.output_tokens;
          reasoningTokens = event.usage.output_tokens_details?.thinking_tokens ?? reasoningTokens;
          if (typeof event.usage.input_tokens === 'number') {
            inputTokens = event.usage.input_tokens + (event.usage.cache_read_input_tokens ?? 0) + (event.usage.cache_creation_input_tokens ?? 0);
            cachedInputTokens = event.usage.cache_read_input_tokens ?? 0;
          }
        } else if (event.type === 'message_stop') {
          stopped = true;
        }
      }
      // The SDK ends the stream quietly when the turn is cancelled: that is the cancel, not a cut stream.
      request.signal?.throwIfAborted();
      if (!stopped) throw new LlmUnavailableError('Anthropic ended the stream before message_stop');
      const usage: TurnUsage = { inputTokens, outputTokens, countedBy: 'provider', cachedInputTokens, reasoningTokens };
      const toolCalls = [...calls.values()].map(({ json, ...call }) => ({ ...call, arguments: json || '{}' }));
      if (toolCalls.length > 0) return { kind: 'tool_calls', calls: toolCalls, ...(text ? { content: text } : {}), usage };
      if (text === undefined) throw new LlmUnavailableError('Anthropic returned no text');
      return { kind: 'answer', text, usage };
    } catch (error) {
      throw request.signal?.aborted ? error : classify(error);
    }
  }
}

/** What a turn and its token count both send: the system prompt, the messages, the tools and the answer's format. */
function messageParams(request: LlmRequest, names: WireToolNames) {
  return {
    model: request.model,
    system: request.instructions,
    ...(request.responseFormat ? { output_config: { format: { type: 'json_schema' as const, schema: request.responseFormat.schema } } } : {}),
    messages: toMessages(conversationSteps(request), names),
    ...(request.tools.length
      ? {
          tools: request.tools.map((tool) => ({
            name: names.wire(tool.name),
            description: tool.description,
            input_schema: tool.parameters as Anthropic.Tool.InputSchema,
          })),
        }
      : {}),
  };
}

function classify(error: unknown): Error {
  if (error instanceof LlmRequestRejectedError || error instanceof LlmUnavailableError) return error;
  if (error instanceof Anthropic.APIConnectionError) return new LlmUnavailableError(`Anthropic could not be reached: ${error.message}`);
  if (error instanceof Anthropic.APIError) {
    // An `error` event inside a 200 stream carries no status: overloaded and api errors are worth retrying.
    const status = typeof error.status === 'number' ? error.status : error.type === 'overloaded_error' ? 529 : 500;
    return providerHttpFailure('Anthropic', status, error.apiMessage ?? error.message, error.headers);
  }
  return error instanceof Error ? new LlmUnavailableError(`Anthropic: ${error.message}`) : new Error(String(error));
}
