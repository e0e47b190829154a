import { ApiError, GoogleGenAI, type Content, type Part } from '@google/genai';
import type { PylonConfig } from '@pylon/config';
import type { LlmTurn, ToolCall, TurnUsage } from '@pylon/contracts';
import { LlmRequestRejectedError, LlmUnavailableError } from '../llm-errors';
import type { LlmRequest } from '../llm-provider';
import { argumentsObject, conversationSteps, type ConversationStep } from './conversation-steps';
import { HostedProvider } from './hosted-provider';
import { providerHttpFailure } from './provider-failure';
import { WireToolNames } from './wire-tool-names';

/** Gemini's models take 1 048 576 tokens of context. */
const CONTEXT_TOKENS = 1_048_576;

/**
 * The steps as Gemini contents: `user` and `model` turns, a model's calls as `functionCall` parts and all
 * their results in the next user turn as `functionResponse` parts (each with its call's id and name).
 */
function toContents(steps: ConversationStep[], names: WireToolNames): Content[] {
  const contents: Content[] = [];
  const push = (role: 'user' | 'model', parts: Part[]) => {
    const last = contents[contents.length - 1];
    if (last?.role === role) last.parts!.push(...parts);
    else contents.push({ role, parts });
  };
  for (const step of steps) {
    if (step.kind === 'user') push('user', [{ text: step.text }]);
    else if (step.kind === 'assistant') push('model', [{ text: step.text }]);
    else if (step.kind === 'tool_calls')
      push('model', [
        ...(step.text ? [{ text: step.text }] : []),
        ...step.calls.map((call) => ({ functionCall: { id: call.id, name: names.wire(call.name), args: argumentsObject(call.arguments) } })),
      ]);
    else push('user', [{ functionResponse: { id: step.callId, name: names.wire(step.name), response: { output: step.content } } }]);
  }
  return contents;
}

/** Gemini's `RetryInfo` in an error's details (`"retryDelay": "7s"`), as milliseconds. */
function retryDelayOf(message: string): number | undefined {
  const match = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(message);
  return match ? Math.min(Number(match[1]) * 1000, 600_000) : undefined;
}

/**
 * Google's Gemini API through its official SDK (`@google/genai`), streamed (`streamGenerateContent`): text
 * parts to `onDelta`, `functionCall` parts as tool calls (ids made for the calls Gemini leaves unnamed), the
 * usage from `usageMetadata`. Structured output is native (`responseJsonSchema`). The SDK's own retries are
 * off: Temporal retries the activity, after the `retryDelay` a 429 gives.
 */
export class GoogleLlmProvider extends HostedProvider<GoogleGenAI> {
  readonly name = 'google';
  protected readonly keyVariable = 'GOOGLE_API_KEY';

  constructor(private readonly config: PylonConfig) {
    super();
  }

  protected get operatorKey(): string | undefined {
    return this.config.googleApiKey;
  }

  protected makeClient(apiKey: string): GoogleGenAI {
    return new GoogleGenAI({
      apiKey,
      httpOptions: {
        ...(this.config.googleBaseUrl ? { baseUrl: this.config.googleBaseUrl } : {}),
        timeout: this.config.llmTimeoutMs,
        retryOptions: { attempts: 1 },
      },
    });
  }

  async checkKey(apiKey: string, signal?: AbortSignal): Promise<void> {
    try {
      await this.clientFor(apiKey).models.list({ config: { pageSize: 1, abortSignal: signal } });
    } catch (error) {
      throw classify(error);
    }
  }

  contextTokens(): number {
    return CONTEXT_TOKENS;
  }

  /**
   * Gemini's own count (`models/{model}:countTokens`). The Gemini API counts contents only, so the instructions and
   * the tools' declarations go in as texts ahead of the messages: the model reads as many tokens of them either way.
   */
  async countInputTokens(request: LlmRequest): Promise<number> {
    const names = new WireToolNames(request.tools.map((tool) => tool.name));
    const preamble = [request.instructions, ...(request.tools.length ? [JSON.stringify(request.tools)] : [])].filter((text) => text.length > 0);
    try {
      const counted = await this.clientFor(request.apiKey).models.countTokens({
        model: request.model,
        contents: [
          ...(preamble.length ? [{ role: 'user', parts: preamble.map((text) => ({ text })) }] : []),
          ...toContents(conversationSteps(request), names),
        ],
        config: { abortSignal: request.signal },
      });
      return counted.totalTokens ?? 0;
    } catch (error) {
      throw request.signal?.aborted ? error : classify(error);
    }
  }

  async generate(request: LlmRequest): Promise<LlmTurn> {
    const client = this.clientFor(request.apiKey);
    const names = new WireToolNames(request.tools.map((tool) => tool.name));
    try {
      const stream = await client.models.generateContentStream({
        model: request.model,
        contents: toContents(conversationSteps(request), names),
        config: {
          systemInstruction: request.instructions,
          abortSignal: request.signal,
          ...(request.temperature !== null ? { temperature: request.temperature } : {}),
          ...(request.maxOutputTokens !== null ? { maxOutputTokens: request.maxOutputTokens } : {}),
          ...(request.responseFormat ? { responseMimeType: 'application/json', responseJsonSchema: request.responseFormat.schema } : {}),
          ...(request.tools.length
            ? {
                tools: [
                  {
                    functionDeclarations: request.tools.map((tool) => ({
                      name: names.wire(tool.name),
                      description: tool.description,
                      parametersJsonSchema: tool.parameters,
                    })),
                  },
                ],
              }
            : {}),
        },
      });
      let text: string | undefined;
      let usage: TurnUsage | undefined;
      let finished = false;
      const calls: ToolCall[] = [];
      for await (const chunk of stream) {
        if (chunk.usageMetadata?.promptTokenCount !== undefined) {
          const counts = chunk.usageMetadata;
          usage = {
            inputTokens: counts.promptTokenCount ?? 0,
            outputTokens: (counts.candidatesTokenCount ?? 0) + (counts.thoughtsTokenCount ?? 0),
            countedBy: 'provider',
            cachedInputTokens: counts.cachedContentTokenCount ?? 0,
            reasoningTokens: counts.thoughtsTokenCount ?? 0,
          };
        }
        const candidate = chunk.candidates?.[0];
        if (candidate?.finishReason) finished = true;
        for (const part of candidate?.content?.parts ?? []) {
          if (part.thought) continue;
          if (typeof part.text === 'string' && part.text.length > 0) {
            text = (text ?? '') + part.text;
            request.onDelta?.(part.text);
          }
          if (part.functionCall?.name) {
            calls.push({
              id: part.functionCall.id ?? `call_${calls.length + 1}`,
              name: names.own(part.functionCall.name),
              arguments: JSON.stringify(part.functionCall.args ?? {}),
            });
          }
        }
      }
      request.signal?.throwIfAborted();
      if (!finished) throw new LlmUnavailableError('Gemini ended the stream without a finish reason');
      const counted = usage ? { usage } : {};
      if (calls.length > 0) return { kind: 'tool_calls', calls, ...(text ? { content: text } : {}), ...counted };
      if (text === undefined) throw new LlmUnavailableError('Gemini returned no text');
      return { kind: 'answer', text, ...counted };
    } catch (error) {
      throw request.signal?.aborted ? error : classify(error);
    }
  }
}

function classify(error: unknown): Error {
  if (error instanceof LlmRequestRejectedError || error instanceof LlmUnavailableError) return error;
  if (error instanceof ApiError) {
    const failure = providerHttpFailure('Gemini', error.status, error.message);
    const delay = retryDelayOf(error.message);
    return failure instanceof LlmUnavailableError && delay !== undefined ? new LlmUnavailableError(failure.message, delay) : failure;
  }
  return error instanceof Error ? new LlmUnavailableError(`Gemini: ${error.message}`) : new Error(String(error));
}
