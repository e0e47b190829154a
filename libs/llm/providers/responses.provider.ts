import type OpenAI from 'openai';
import type { LlmTurn, ToolCall, TurnUsage } from '@pylon/contracts';
import { LlmUnavailableError } from '../llm-errors';
import type { LlmRequest } from '../llm-provider';
import { OpenAiEndpointProvider, openAiFailure } from './openai-endpoint';
import { conversationSteps, type ConversationStep } from './conversation-steps';
import { WireToolNames } from './wire-tool-names';

type InputItem = OpenAI.Responses.ResponseInputItem;

/** The steps as Responses input items: messages, `function_call` items and their `function_call_output`s. */
function toInput(steps: ConversationStep[], names: WireToolNames): InputItem[] {
  const items: InputItem[] = [];
  for (const step of steps) {
    if (step.kind === 'user') items.push({ type: 'message', role: 'user', content: step.text });
    else if (step.kind === 'assistant') items.push({ type: 'message', role: 'assistant', content: step.text });
    else if (step.kind === 'tool_calls') {
      if (step.text) items.push({ type: 'message', role: 'assistant', content: step.text });
      for (const call of step.calls) items.push({ type: 'function_call', call_id: call.id, name: names.wire(call.name), arguments: call.arguments });
    } else items.push({ type: 'function_call_output', call_id: step.callId, output: step.content });
  }
  return items;
}

/** What a turn and its token count both send: the instructions, the input items, the tools and the answer's format. */
function responseParams(request: LlmRequest, names: WireToolNames) {
  const format = request.responseFormat;
  return {
    model: request.model,
    instructions: request.instructions,
    input: toInput(conversationSteps(request), names),
    ...(format ? { text: { format: { type: 'json_schema' as const, name: format.name, schema: format.schema, strict: format.strict } } } : {}),
    ...(request.tools.length
      ? {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            name: names.wire(tool.name),
            description: tool.description,
            parameters: tool.parameters,
            strict: false,
          })),
        }
      : {}),
  };
}

/**
 * An OpenAI-compatible server through the Responses API (`POST /responses`, streamed, `store: false`, so the
 * server keeps nothing: Pylon holds the conversation): text deltas to `onDelta`, `function_call` output items
 * as tool calls, structured output natively (`text.format: json_schema`), the usage from `response.completed`.
 * The SDK's own retries are off: Temporal retries the activity.
 */
export class ResponsesProvider extends OpenAiEndpointProvider {
  contextTokens(): number {
    return 128_000;
  }

  /** The server's own count (`POST /responses/input_tokens`) of the instructions, input items, tools and format. */
  async countInputTokens(request: LlmRequest): Promise<number> {
    const names = new WireToolNames(request.tools.map((tool) => tool.name));
    try {
      const counted = await this.clientFor(request.apiKey).responses.inputTokens.count(responseParams(request, names), { signal: request.signal });
      return counted.input_tokens;
    } catch (error) {
      throw request.signal?.aborted ? error : openAiFailure(this.endpoint.vendor, error);
    }
  }

  async generate(request: LlmRequest): Promise<LlmTurn> {
    const client = this.clientFor(request.apiKey);
    const names = new WireToolNames(request.tools.map((tool) => tool.name));
    try {
      const stream = await client.responses.create(
        {
          ...responseParams(request, names),
          stream: true,
          store: false,
          ...(request.temperature !== null ? { temperature: request.temperature } : {}),
          ...(request.maxOutputTokens !== null ? { max_output_tokens: request.maxOutputTokens } : {}),
        },
        { signal: request.signal },
      );
      let text: string | undefined;
      let usage: TurnUsage | undefined;
      let done = false;
      const calls: ToolCall[] = [];
      for await (const event of stream) {
        if (event.type === 'response.output_text.delta' && event.delta.length > 0) {
          text = (text ?? '') + event.delta;
          request.onDelta?.(event.delta);
        } else if (event.type === 'response.output_item.done' && event.item.type === 'function_call') {
          calls.push({ id: event.item.call_id, name: names.own(event.item.name), arguments: event.item.arguments });
        } else if (event.type === 'response.completed' || event.type === 'response.incomplete') {
          done = true;
          const counted = event.response.usage;
          if (counted)
            usage = {
              inputTokens: counted.input_tokens,
              outputTokens: counted.output_tokens,
              countedBy: 'provider',
              cachedInputTokens: counted.input_tokens_details?.cached_tokens ?? 0,
              reasoningTokens: counted.output_tokens_details?.reasoning_tokens ?? 0,
            };
        } else if (event.type === 'response.failed') {
          throw new LlmUnavailableError(`${this.endpoint.vendor}: the response failed: ${event.response.error?.message ?? 'no reason given'}`);
        }
      }
      request.signal?.throwIfAborted();
      if (!done) throw new LlmUnavailableError(`${this.endpoint.vendor} ended the stream before response.completed`);
      const counted = usage ? { usage } : {};
      if (calls.length > 0) return { kind: 'tool_calls', calls, ...(text ? { content: text } : {}), ...counted };
      if (text === undefined) throw new LlmUnavailableError(`${this.endpoint.vendor} returned no text`);
      return { kind: 'answer', text, ...counted };
    } catch (error) {
      throw request.signal?.aborted ? error : openAiFailure(this.endpoint.vendor, error);
    }
  }
}
