import { Injectable } from '@nestjs/common';
import OpenAI from 'openai';
import { PylonConfig } from '@pylon/config';
import { LlmRequestRejectedError, LlmUnavailableError } from '../llm-errors';
import type { LlmProvider, LlmRequest } from '../llm-provider';

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
  private client: OpenAI | undefined;

  constructor(private readonly config: PylonConfig) {}

  supportsModel(model: string): boolean {
    return model.length > 0;
  }

  async generate(request: LlmRequest): Promise<string> {
    const client = this.getClient();
    try {
      const completion = await client.chat.completions.create({
        model: request.model,
        messages: [
          { role: 'system', content: request.instructions },
          { role: 'user', content: request.input },
        ],
        ...(request.temperature !== null ? { temperature: request.temperature } : {}),
        ...(request.maxOutputTokens !== null ? { max_completion_tokens: request.maxOutputTokens } : {}),
      }, { signal: request.signal });
      const text = completion.choices[0]?.message?.content;
      if (typeof text !== 'string') throw new LlmUnavailableError('OpenAI returned no message content');
      return text;
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
