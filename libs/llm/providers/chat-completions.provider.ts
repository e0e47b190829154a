import type OpenAI from 'openai';
import { LlmUnavailableError } from '../llm-errors';
import type { LlmTurn, TurnUsage } from '@pylon/contracts';
import type { LlmRequest } from '../llm-provider';
import { conversationSteps } from './conversation-steps';
import { WireToolNames } from './wire-tool-names';
import { OpenAiEndpointProvider, openAiFailure } from './openai-endpoint';

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/** Context windows of the models this server knows; any other model is taken to have the smallest. */
const CONTEXT_TOKENS: ReadonlyArray<[RegExp, number]> = [
  [/^gpt-4\.1/, 1_000_000],
  [/^(gpt-4o|gpt-4-turbo|o1|o3|o4)/, 128_000],
  [/^gpt-5/, 400_000],
];
const DEFAULT_CONTEXT_TOKENS = 16_000;

/** The instructions as the system message, then the steps: messages, an assistant's `tool_calls`, and a `tool` message per result. */
function toMessages(request: LlmRequest, names: WireToolNames): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'system', content: request.instructions }];
  for (const step of conversationSteps(request)) {
    if (step.kind === 'user') messages.push({ role: 'user', content: step.text });
    else if (step.kind === 'assistant') messages.push({ role: 'assistant', content: step.text });
    else if (step.kind === 'tool_calls')
      messages.push({
        role: 'assistant',
        content: step.text ?? null,
        tool_calls: step.calls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: names.wire(call.name), arguments: call.arguments },
        })),
      });
    else messages.push({ role: 'tool', tool_call_id: step.callId, content: step.content });
  }
  return messages;
}

/** Chat Completions' structured output for the version's schema. */
function responseFormatOf(request: LlmRequest): OpenAI.Chat.Completions.ChatCompletionCreateParams['response_format'] | undefined {
  const format = request.responseFormat;
  return format ? { type: 'json_schema', json_schema: { name: format.name, schema: format.schema, strict: format.strict } } : undefined;
}

/**
 * OpenAI, or any OpenAI-compatible server (OPENAI_BASE_URL, or an endpoint named in MODEL_PROVIDERS), via
 * Chat Completions. The SDK's own retries are off: Temporal retries the activity with backoff instead.
 */
export class ChatCompletionsProvider extends OpenAiEndpointProvider {
  contextTokens(model: string): number {
    return CONTEXT_TOKENS.find(([pattern]) => pattern.test(model))?.[1] ?? DEFAULT_CONTEXT_TOKENS;
  }

  /** Streams the completion, handing each piece of content to `onDelta` as it arrives; the last chunk counts the tokens. */
  async generate(request: LlmRequest): Promise<LlmTurn> {
    const client = this.clientFor(request.apiKey);
    const names = new WireToolNames(request.tools.map((tool) => tool.name));
    try {
      const stream = await client.chat.completions.create(
        {
          model: request.model,
          messages: toMessages(request, names),
          stream: true,
          stream_options: { include_usage: true },
          ...(request.responseFormat ? { response_format: responseFormatOf(request) } : {}),
          ...(request.tools.length
            ? { tools: request.tools.map((tool) => ({ type: 'function' as const, function: { ...tool, name: names.wire(tool.name) } })) }
            : {}),
          ...(request.temperature !== null ? { temperature: request.temperature } : {}),
          ...(request.maxOutputTokens !== null ? { max_completion_tokens: request.maxOutputTokens } : {}),
        },
        { signal: request.signal },
      );
      let content: string | undefined;
      let usage: TurnUsage | undefined;
      const calls: Array<{ id: string; name: string; arguments: string }> = [];
      for await (const chunk of stream) {
        if (chunk.usage)
          usage = {
            inputTokens: chunk.usage.prompt_tokens,
            outputTokens: chunk.usage.completion_tokens,
            countedBy: 'provider',
            cachedInputTokens: chunk.usage.prompt_tokens_details?.cached_tokens ?? 0,
            reasoningTokens: chunk.usage.completion_tokens_details?.reasoning_tokens ?? 0,
          };
        const delta = chunk.choices[0]?.delta;
        if (!delta) continue;
        if (typeof delta.content === 'string' && delta.content.length > 0) {
          content = (content ?? '') + delta.content;
          request.onDelta?.(delta.content);
        }
        for (const call of delta.tool_calls ?? []) {
          const gathered = (calls[call.index] ??= { id: '', name: '', arguments: '' });
          if (call.id) gathered.id = call.id;
          if (call.function?.name) gathered.name += call.function.name;
          if (call.function?.arguments) gathered.arguments += call.function.arguments;
        }
      }
      const toolCalls = calls.filter((call) => call && call.name).map((call) => ({ ...call, name: names.own(call.name) }));
      const counted = usage ? { usage } : {};
      if (toolCalls.length > 0) return { kind: 'tool_calls', calls: toolCalls, ...(content ? { content } : {}), ...counted };
      if (content === undefined) throw new LlmUnavailableError(`${this.endpoint.vendor} returned no message content`);
      return { kind: 'answer', text: content, ...counted };
    } catch (error) {
      throw openAiFailure(this.endpoint.vendor, error);
    }
  }
}
