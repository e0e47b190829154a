import type { LlmTurn } from '@pylon/contracts';
import { LlmRequestRejectedError } from '../llm-errors';
import type { LlmProvider, LlmRequest } from '../llm-provider';

/** Clients a provider keeps, one per key in use; past it, the oldest goes (a client holds no state of a run). */
const KEPT_CLIENTS = 256;

/**
 * A provider behind the network: it takes any model name, answers outside the process, lists no models of its
 * own, and authenticates with an API key: the organisation's own when the request carries one, else the
 * operator's. It keeps one SDK client per key.
 */
export abstract class HostedProvider<Client> implements LlmProvider {
  abstract readonly name: string;
  readonly answersInProcess = false;
  readonly models = null;
  private readonly clients = new Map<string, Client>();

  /** The operator's key for it, from the environment; undefined when unset. */
  protected abstract readonly operatorKey: string | undefined;
  /** The variable the operator's key is read from; undefined for a server that takes no key. */
  protected abstract readonly keyVariable: string | undefined;
  protected abstract makeClient(apiKey: string): Client;

  /** Whether it authenticates with a key (so an organisation may bring its own). */
  get keyed(): boolean {
    return this.keyVariable !== undefined;
  }

  get configured(): boolean {
    return !this.keyed || !!this.operatorKey;
  }

  supportsModel(model: string): boolean {
    return model.length > 0;
  }

  /** The client for a request: on its own key when it carries one, else on the operator's. */
  protected clientFor(apiKey: string | undefined): Client {
    // A server that takes no key still gets a placeholder: the SDKs require one.
    const key = apiKey ?? this.operatorKey ?? (this.keyed ? undefined : 'no-key');
    if (!key) throw new LlmRequestRejectedError(`${this.keyVariable} is not configured, so ${this.name}/* models cannot run`);
    let client = this.clients.get(key);
    if (!client) {
      if (this.clients.size >= KEPT_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
      client = this.makeClient(key);
      this.clients.set(key, client);
    }
    return client;
  }

  abstract contextTokens(model: string): number;
  abstract generate(request: LlmRequest): Promise<LlmTurn>;
  abstract checkKey(apiKey: string, signal?: AbortSignal): Promise<void>;
}
