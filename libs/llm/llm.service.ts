import { Inject, Injectable } from '@nestjs/common';
import type { LlmTurn, TurnUsage } from '@pylon/contracts';
import { LlmRequestRejectedError } from './llm-errors';
import type { LlmProvider, LlmRequest } from './llm-provider';
import { parseModelId } from './model-id';
import { countTurn } from './token-counter';

/** The providers this server offers (providers/model-providers.ts). */
export const LLM_PROVIDERS = Symbol('LlmProviders');

/** A provider as the agent editor shows it: whether this server can run it, and its models. */
export interface ModelProviderInfo {
  provider: string;
  configured: boolean;
  /** Whether it authenticates with an API key, so an organisation may bring its own. */
  keyed: boolean;
  /** Full `provider/model` ids; null when any `provider/<name>` is accepted. */
  models: string[] | null;
}

/** Routes a `provider/model` id to its provider. */
@Injectable()
export class LlmService {
  private readonly providers: ReadonlyMap<string, LlmProvider>;

  constructor(@Inject(LLM_PROVIDERS) providers: LlmProvider[]) {
    this.providers = new Map(providers.map((provider) => [provider.name, provider]));
  }

  /** Every provider, and whether this server has what it needs to run it. */
  modelProviders(): ModelProviderInfo[] {
    return [...this.providers.values()].map((provider) => ({
      provider: provider.name,
      configured: provider.configured,
      keyed: provider.keyed,
      models: provider.models ? provider.models.map((model) => `${provider.name}/${model}`) : null,
    }));
  }

  hasProvider(provider: string): boolean {
    return this.providers.has(provider);
  }

  /** Whether the provider authenticates with an API key (an organisation may bring its own). */
  isKeyed(provider: string): boolean {
    return !!this.providers.get(provider)?.keyed;
  }

  /** Whether the provider can run on this server's own key (or needs none). */
  isConfigured(provider: string): boolean {
    return !!this.providers.get(provider)?.configured;
  }

  /** One minimal call on `apiKey` (see LlmProvider.checkKey). */
  async checkKey(provider: string, apiKey: string, signal?: AbortSignal): Promise<void> {
    const found = this.providers.get(provider);
    if (!found?.checkKey) throw new LlmRequestRejectedError(`${provider} takes no key`);
    await found.checkKey(apiKey, signal);
  }

  /** Whether a version may be created with this model id. */
  isSupported(modelId: string): boolean {
    const parsed = parseModelId(modelId);
    return !!parsed && !!this.providers.get(parsed.provider)?.supportsModel(parsed.model);
  }

  /** Whether this model answers inside the worker's process, with no network (see LlmProvider). */
  answersInProcess(modelId: string): boolean {
    const parsed = parseModelId(modelId);
    return !!parsed && !!this.providers.get(parsed.provider)?.answersInProcess;
  }

  /** The model's context in tokens (see LlmProvider.contextTokens); 0 for a model this server does not serve. */
  contextTokens(modelId: string): number {
    const parsed = parseModelId(modelId);
    const provider = parsed && this.providers.get(parsed.provider);
    return parsed && provider ? provider.contextTokens(parsed.model) : 0;
  }

  /** Why the model cannot answer in this JSON Schema, or null (see LlmProvider.responseSchemaFault). */
  responseSchemaFault(modelId: string, schema: Record<string, unknown>): string | null {
    const parsed = parseModelId(modelId);
    const provider = parsed && this.providers.get(parsed.provider);
    return parsed && provider?.responseSchemaFault ? provider.responseSchemaFault(parsed.model, schema) : null;
  }

  /** Whether the model's provider counts tokens itself (see LlmProvider.countInputTokens). */
  countsTokens(modelId: string): boolean {
    const parsed = parseModelId(modelId);
    return !!parsed && !!this.providers.get(parsed.provider)?.countInputTokens;
  }

  /** The request's input tokens as the model's provider counts them; null when it has no count of its own. */
  async countInputTokens(modelId: string, request: Omit<LlmRequest, 'model'>): Promise<number | null> {
    const parsed = parseModelId(modelId);
    const provider = parsed && this.providers.get(parsed.provider);
    if (!parsed || !provider?.countInputTokens) return null;
    return provider.countInputTokens({ ...request, model: parsed.model });
  }

  /** One model turn, always with its usage: the provider's count, or the tokenizer's when the provider gives none. */
  async generate(modelId: string, request: Omit<LlmRequest, 'model'>): Promise<LlmTurn & { usage: TurnUsage }> {
    const parsed = parseModelId(modelId);
    const provider = parsed && this.providers.get(parsed.provider);
    if (!parsed || !provider || !provider.supportsModel(parsed.model)) {
      throw new LlmRequestRejectedError(`model ${modelId} is not available`);
    }
    const asked = { ...request, model: parsed.model };
    const turn = await provider.generate(asked);
    return { ...turn, usage: turn.usage ?? countTurn(asked, turn) };
  }
}
