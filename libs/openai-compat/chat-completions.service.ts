import { Injectable } from '@nestjs/common';
import { ErrorCode, PylonError } from '@pylon/contracts';
import type { ChatCompletionRequest } from './chat-request';
import type { FunctionCallItem, ResponseObject } from './response-object';
import type { ResponseStreamEvent } from './response-events';
import { ResponsesService, type StartedResponse } from './responses.service';

interface ToolCallView {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: 0;
    message: { role: 'assistant'; content: string | null; refusal: null; tool_calls?: ToolCallView[] };
    finish_reason: 'stop' | 'tool_calls';
    logprobs: null;
  }>;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{ index: 0; delta: Record<string, unknown>; finish_reason: 'stop' | 'tool_calls' | null; logprobs: null }>;
  usage?: ChatCompletion['usage'];
}

/** What a failed run's stream ends with: OpenAI's error object, which its SDKs raise. */
export interface ChatStreamError {
  error: { message: string; type: 'server_error'; param: null; code: string };
}

/**
 * OpenAI's Chat Completions over the same runs as the Responses API: a completion is the response a run makes,
 * written as a `chat.completion` (or streamed as `chat.completion.chunk`s made from the response's semantic events).
 */
@Injectable()
export class ChatCompletionsService {
  constructor(private readonly responses: ResponsesService) {}

  start(orgId: string, request: ChatCompletionRequest, idempotencyKey: string | null): Promise<StartedResponse> {
    return this.responses.create(orgId, request.response, idempotencyKey);
  }

  async complete(orgId: string, started: StartedResponse, signal: AbortSignal): Promise<ChatCompletion> {
    const response = await this.responses.finished(orgId, started, signal);
    const calls = completedOrRefused(response);
    const text = response.output.find((item) => item.type === 'message')?.content[0]?.text ?? null;
    return {
      id: completionId(response.id),
      object: 'chat.completion',
      created: response.created_at,
      model: response.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: text, refusal: null, ...(calls.length > 0 && { tool_calls: calls.map(toolCallView) }) },
          finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
          logprobs: null,
        },
      ],
      usage: response.usage && chatUsage(response.usage),
    };
  }

  /** The completion as chunks, each handed to `send` as the run makes it; a failed run ends with OpenAI's error object. */
  async stream(
    orgId: string,
    started: StartedResponse,
    includeUsage: boolean,
    signal: AbortSignal,
    send: (chunk: ChatCompletionChunk | ChatStreamError) => Promise<void>,
  ): Promise<void> {
    const chunks = new ChatChunkTranslator(
      started.run.id,
      started.run.agentVersionId,
      Math.floor(started.run.createdAt.getTime() / 1000),
      includeUsage,
    );
    await this.responses.stream(orgId, started, signal, async (event) => {
      for (const chunk of chunks.translate(event)) await send(chunk);
    });
  }
}

function completionId(runId: string): string {
  return `chatcmpl-${runId.replace(/-/g, '')}`;
}

function toolCallView(call: FunctionCallItem): ToolCallView {
  return { id: call.call_id, type: 'function', function: { name: call.name, arguments: call.arguments } };
}

function chatUsage(usage: NonNullable<ResponseObject['usage']>): NonNullable<ChatCompletion['usage']> {
  return { prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens, total_tokens: usage.total_tokens };
}

/** The function calls of a completed response; a run that failed, was cancelled or waits for a person is an error here. */
function completedOrRefused(response: ResponseObject): FunctionCallItem[] {
  if (response.status === 'completed') return response.output.filter((item): item is FunctionCallItem => item.type === 'function_call');
  if (response.status === 'failed' || response.status === 'cancelled') {
    throw new PylonError(ErrorCode.InternalError, `run ${response.id} ${response.status}: ${response.error?.message ?? 'cancelled'}`);
  }
  throw PylonError.invalidRequest(
    `run ${response.id} waits for a person's approval, which Chat Completions cannot express: answer it through Pylon's API or use /v1/responses`,
  );
}

/** A response's semantic events as chat chunks: the role first, text and tool-call deltas, the finish reason, then the usage when asked. */
class ChatChunkTranslator {
  private calls = 0;

  constructor(
    private readonly runId: string,
    private readonly model: string,
    private readonly created: number,
    private readonly includeUsage: boolean,
  ) {}

  translate(event: ResponseStreamEvent): Array<ChatCompletionChunk | ChatStreamError> {
    if (event.type === 'response.created') return [this.chunk({ role: 'assistant', content: '' })];
    if (event.type === 'response.output_text.delta') return [this.chunk({ content: event.delta })];
    if (event.type === 'response.output_item.added' && (event.item as { type: string }).type === 'function_call') {
      const item = event.item as FunctionCallItem;
      return [
        this.chunk({ tool_calls: [{ index: this.calls++, id: item.call_id, type: 'function', function: { name: item.name, arguments: '' } }] }),
      ];
    }
    if (event.type === 'response.function_call_arguments.delta') {
      return [this.chunk({ tool_calls: [{ index: this.calls - 1, function: { arguments: event.delta } }] })];
    }
    if (event.type === 'response.completed') {
      const response = event.response as ResponseObject;
      const finish = this.calls > 0 ? 'tool_calls' : 'stop';
      const last: ChatCompletionChunk[] = [this.chunk({}, finish)];
      if (this.includeUsage && response.usage) last.push({ ...this.chunk({}), choices: [], usage: chatUsage(response.usage) });
      return last;
    }
    if (event.type === 'response.failed') {
      const response = event.response as ResponseObject;
      return [
        {
          error: {
            message: `run ${this.runId} ${response.status}: ${response.error?.message ?? 'cancelled'}`,
            type: 'server_error',
            param: null,
            code: 'run_failed',
          },
        },
      ];
    }
    return [];
  }

  private chunk(delta: Record<string, unknown>, finish: 'stop' | 'tool_calls' | null = null): ChatCompletionChunk {
    return {
      id: completionId(this.runId),
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    };
  }
}
