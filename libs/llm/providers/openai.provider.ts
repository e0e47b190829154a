import { Injectable } from '@nestjs/common';
import OpenAI from 'openai';
import { PylonConfig } from '@pylon/config';
import { LlmRequestRejectedError, LlmUnavailableError } from '../llm-errors';
import type { LlmTurn } from '@pylon/contracts';
import type { LlmProvider, LlmRequest } from '../llm-provider';

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

function toMessages(request: LlmRequest): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: request.instructions },
    { role: 'user', content: request.input },
  ];
  for (const entry of request.transcript) {
    if (entry.role === 'assistant') {
      messages.push({
        role: 'assistant',
        content: entry.content ?? null,
        tool_calls: entry.toolCalls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: call.arguments },
        })),
      });
    } else {
      messages.push({ role: 'tool', tool_call_id: entry.toolCallId, content: entry.content });
    }
  }
  return messages;
}

/** Statuses worth retrying: request timeout, conflict, rate limit, and server errors. */
function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * OpenAI, or any OpenAI-compatible server through OPENAI_BASE_URL, via Chat Completions.
 * The SDK's own retries are off: Temporal retries the activity with backoff instead.
 */
@Injectable()
export class OpenAiLlmProvider implements LlmProvider {
  readonly name = 'openai';
  readonly answersInProcess = false;
  readonly models = null;
  private client: OpenAI | undefined;

  constructor(private readonly config: PylonConfig) {}

  get configured(): boolean {
    return !!this.config.openaiApiKey;
  }

  supportsModel(model: string): boolean {
    return model.length > 0;
  }

  /** Streams the completion, handing each piece of content to `onDelta` as it arrives. */
  async generate(request: LlmRequest): Promise<LlmTurn> {
    const client = this.getClient();
    try {
      const stream = await client.chat.completions.create(
        {
          model: request.model,
          messages: toMessages(request),
          stream: true,
          ...(request.tools.length ? { tools: request.tools.map((tool) => ({ type: 'function' as const, function: tool })) } : {}),
          ...(request.temperature !== null ? { temperature: request.temperature } : {}),
          ...(request.maxOutputTokens !== null ? { max_completion_tokens: request.maxOutputTokens } : {}),
        },
        { signal: request.signal },
      );
      let content: string | undefined;
      const calls: Array<{ id: string; name: string; arguments: string }> = [];
      for await (const chunk of stream) {
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
      const toolCalls = calls.filter((call) => call && call.name);
      if (toolCalls.length > 0) return { kind: 'tool_calls', calls: toolCalls, ...(content ? { content } : {}) };
      if (content === undefined) throw new LlmUnavailableError('OpenAI returned no message content');
      return { kind: 'answer', text: content };
    } catch (error) {
      throw classify(error);
    }
  }

  private getClient(): OpenAI {
    if (!this.config.openaiApiKey) {
      throw new LlmRequestRejectedError('OPENAI_API_KEY is not configured, so openai/* models cannot run');
    }
    this.client ??= new OpenAI({
      apiKey: this.config.openaiApiKey,
      baseURL: this.config.openaiBaseUrl,
      timeout: this.config.llmTimeoutMs,
      maxRetries: 0,
    });
    return this.client;
  }
}

function classify(error: unknown): Error {
  if (error instanceof LlmRequestRejectedError || error instanceof LlmUnavailableError) return error;
  if (error instanceof OpenAI.APIConnectionError) {
    return new LlmUnavailableError(`OpenAI could not be reached: ${error.message}`);
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const message = `OpenAI answered ${error.status}: ${error.message}`;
    return isRetryableStatus(error.status) ? new LlmUnavailableError(message) : new LlmRequestRejectedError(message);
  }
  return error instanceof Error ? error : new Error(String(error));
}
