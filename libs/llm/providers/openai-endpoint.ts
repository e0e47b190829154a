import OpenAI from 'openai';
import { HostedProvider } from './hosted-provider';
import { LlmRequestRejectedError, LlmUnavailableError } from '../llm-errors';
import { providerHttpFailure } from './provider-failure';

/** Where an OpenAI-compatible provider is and how it authenticates. */
export interface OpenAiEndpoint {
  /** The `provider` part of its model ids. */
  name: string;
  /** How errors name it: `OpenAI`, or the operator's name for the endpoint. */
  vendor: string;
  /** Its base URL; the SDK's default (OpenAI) when absent. */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** The variable the key comes from; none for a server that takes no key. */
  apiKeyVariable: string | undefined;
  timeoutMs: number;
}

/** The SDK's failure as Pylon's: a connection or a 408/409/429/5xx is retried, any other status refused for good. */
export function openAiFailure(vendor: string, error: unknown): Error {
  if (error instanceof LlmRequestRejectedError || error instanceof LlmUnavailableError) return error;
  if (error instanceof OpenAI.APIConnectionError) return new LlmUnavailableError(`${vendor} could not be reached: ${error.message}`);
  if (error instanceof OpenAI.APIError)
    return providerHttpFailure(vendor, typeof error.status === 'number' ? error.status : 500, error.message, error.headers);
  return error instanceof Error ? error : new Error(String(error));
}

/** A provider at an OpenAI-compatible endpoint: named and keyed by it, with a client per key (the SDK's retries off: Temporal retries the activity). */
export abstract class OpenAiEndpointProvider extends HostedProvider<OpenAI> {
  constructor(protected readonly endpoint: OpenAiEndpoint) {
    super();
  }

  get name(): string {
    return this.endpoint.name;
  }

  protected get operatorKey(): string | undefined {
    return this.endpoint.apiKey;
  }

  protected get keyVariable(): string | undefined {
    return this.endpoint.apiKeyVariable;
  }

  protected makeClient(apiKey: string): OpenAI {
    return new OpenAI({ apiKey, baseURL: this.endpoint.baseUrl, timeout: this.endpoint.timeoutMs, maxRetries: 0 });
  }

  async checkKey(apiKey: string, signal?: AbortSignal): Promise<void> {
    try {
      await this.clientFor(apiKey).models.list({ signal });
    } catch (error) {
      throw openAiFailure(this.endpoint.vendor, error);
    }
  }
}
