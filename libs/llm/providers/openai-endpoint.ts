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

/** Whether the endpoint has what it needs: its key, or no key to need. */
export function isConfigured(endpoint: OpenAiEndpoint): boolean {
  return !!endpoint.apiKey || !endpoint.apiKeyVariable;
}

/** The endpoint's client (made once), with the SDK's retries off: Temporal retries the activity instead. */
export function openAiClient(endpoint: OpenAiEndpoint, made: OpenAI | undefined): OpenAI {
  if (!isConfigured(endpoint))
    throw new LlmRequestRejectedError(`${endpoint.apiKeyVariable} is not configured, so ${endpoint.name}/* models cannot run`);
  // A server that takes no key (a local Ollama) still gets a placeholder: the SDK requires one.
  return made ?? new OpenAI({ apiKey: endpoint.apiKey ?? 'no-key', baseURL: endpoint.baseUrl, timeout: endpoint.timeoutMs, maxRetries: 0 });
}

/** The SDK's failure as Pylon's: a connection or a 408/409/429/5xx is retried, any other status refused for good. */
export function openAiFailure(vendor: string, error: unknown): Error {
  if (error instanceof LlmRequestRejectedError || error instanceof LlmUnavailableError) return error;
  if (error instanceof OpenAI.APIConnectionError) return new LlmUnavailableError(`${vendor} could not be reached: ${error.message}`);
  if (error instanceof OpenAI.APIError)
    return providerHttpFailure(vendor, typeof error.status === 'number' ? error.status : 500, error.message, error.headers);
  return error instanceof Error ? error : new Error(String(error));
}

/** A provider at an OpenAI-compatible endpoint: named and configured by it, with one client made on first use. */
export abstract class OpenAiEndpointProvider extends HostedProvider {
  private client: OpenAI | undefined;

  constructor(protected readonly endpoint: OpenAiEndpoint) {
    super();
  }

  get name(): string {
    return this.endpoint.name;
  }

  get configured(): boolean {
    return isConfigured(this.endpoint);
  }

  /** The endpoint's client, made on first use. */
  protected openAi(): OpenAI {
    return (this.client = openAiClient(this.endpoint, this.client));
  }
}
