import { Injectable } from '@nestjs/common';
import { PylonConfig } from '@pylon/config';
import { PylonError } from '@pylon/contracts';
import { LlmRequestRejectedError, LlmService, LlmUnavailableError, parseModelId } from '@pylon/llm';
import { SecretBox } from '@pylon/secrets';
import { credentialContext, keyHint } from './key-hint';
import { ModelCredentialRepository, type StoredModelCredential } from './repositories/model-credential.repository';

/** Whose key a model turn runs on: the organisation's own, the operator's, or none (a provider that takes no key). */
export type KeySource = 'organization' | 'operator';

/** An organisation's key for a provider, as answers show it: masked. */
export interface ModelCredential {
  provider: string;
  apiKeyHint: string;
  createdAt: string;
  updatedAt: string;
}

/** The key a turn runs on: `apiKey` is set for the organisation's own; the operator's is the provider's to use. */
export interface ModelKey {
  source: KeySource | null;
  apiKey?: string;
}

/** What `check` found: the key works, or the provider's refusal (or that it could not be reached). */
export interface KeyCheck {
  provider: string;
  valid: boolean;
  /** Why not, as the provider said it; null when the key works. */
  reason: string | null;
}

/** A provider as an organisation may use it: on its own key, the operator's, or not at all. */
export interface ProviderAccess {
  keySource: KeySource | null;
  available: boolean;
}

/** A run's provider has no key it may use: refused for good, naming the key that is missing. */
export class ModelKeyMissingError extends LlmRequestRejectedError {
  constructor(message: string) {
    super(message);
    this.name = 'ModelKeyMissingError';
  }
}

const CHECK_TIMEOUT_MS = 10_000;

/**
 * Each organisation's own model-provider keys: sealed under SECRETS_KEY as MCP headers are (bound to the
 * organisation and provider), masked in every answer, opened only in the worker for the turn that uses it.
 * A turn runs on the organisation's key when it has one; otherwise on the operator's when MODEL_SHARED_PROVIDERS
 * (default: every configured provider) shares it; otherwise it has no key and is refused, naming it.
 */
@Injectable()
export class ModelCredentialsService {
  constructor(
    private readonly credentials: ModelCredentialRepository,
    private readonly secrets: SecretBox,
    private readonly llm: LlmService,
    private readonly config: PylonConfig,
  ) {}

  async put(orgId: string, provider: string, apiKey: string): Promise<ModelCredential> {
    this.requireKeyed(provider);
    if (!this.secrets.canSeal)
      throw PylonError.invalidRequest('this server keeps no secrets (its operator has not set SECRETS_KEY), so it cannot take keys');
    const sealed = this.secrets.seal(apiKey, credentialContext(orgId, provider));
    return toCredential(await this.credentials.put(orgId, provider, sealed, keyHint(apiKey)));
  }

  async list(orgId: string): Promise<ModelCredential[]> {
    return (await this.credentials.list(orgId)).map(toCredential);
  }

  async remove(orgId: string, provider: string): Promise<void> {
    this.requireProvider(provider);
    if (!(await this.credentials.remove(orgId, provider))) throw PylonError.notFound(`the organisation has no ${provider} key`);
  }

  /** One minimal call on the organisation's key (the provider's model list, which costs nothing). */
  async check(orgId: string, provider: string): Promise<KeyCheck> {
    this.requireProvider(provider);
    const stored = await this.credentials.find(orgId, provider);
    if (!stored) throw PylonError.notFound(`the organisation has no ${provider} key`);
    try {
      await this.llm.checkKey(provider, this.open(orgId, stored), AbortSignal.timeout(CHECK_TIMEOUT_MS));
      return { provider, valid: true, reason: null };
    } catch (error) {
      if (error instanceof LlmRequestRejectedError || error instanceof LlmUnavailableError) return { provider, valid: false, reason: error.message };
      if (error instanceof Error && error.name === 'TimeoutError')
        return { provider, valid: false, reason: `${provider} did not answer within ${CHECK_TIMEOUT_MS / 1000} s` };
      throw error;
    }
  }

  /** The key a turn of `modelId` runs on; ModelKeyMissingError when there is none it may use. */
  async keyFor(orgId: string, modelId: string): Promise<ModelKey> {
    const provider = parseModelId(modelId)?.provider;
    if (!provider || !this.llm.isKeyed(provider)) return { source: null };
    const stored = await this.credentials.find(orgId, provider);
    if (stored) return { source: 'organization', apiKey: this.open(orgId, stored) };
    if (this.sharesOperatorKey(provider)) return { source: 'operator' };
    throw new ModelKeyMissingError(this.missingKey(provider));
  }

  /** Whether a turn of `modelId` runs on the organisation's own key (no read for a provider that takes none). */
  async hasOwnKey(orgId: string, modelId: string): Promise<boolean> {
    const provider = parseModelId(modelId)?.provider;
    return !!provider && this.llm.isKeyed(provider) && !!(await this.credentials.find(orgId, provider));
  }

  /** Why the organisation cannot run `modelId` (a version create's 400), or null when it can. */
  async refusal(orgId: string, modelId: string): Promise<string | null> {
    if (!this.llm.isSupported(modelId)) return `model ${modelId} is not available`;
    const provider = parseModelId(modelId)!.provider;
    if (!this.llm.isKeyed(provider) || this.sharesOperatorKey(provider)) return null;
    return (await this.credentials.find(orgId, provider)) ? null : this.missingKey(provider);
  }

  /** Each provider's access for the organisation, by name. */
  async access(orgId: string): Promise<Map<string, ProviderAccess>> {
    const own = new Set((await this.credentials.list(orgId)).map((credential) => credential.provider));
    return new Map(
      this.llm.modelProviders().map(({ provider, configured, keyed }): [string, ProviderAccess] => {
        if (!keyed) return [provider, { keySource: null, available: configured }];
        if (own.has(provider)) return [provider, { keySource: 'organization', available: true }];
        const shared = this.sharesOperatorKey(provider);
        return [provider, { keySource: shared ? 'operator' : null, available: shared }];
      }),
    );
  }

  /** Key rotation: each key sealed under a previous SECRETS_KEY is sealed again under the current one. */
  async reseal(orgId: string): Promise<{ resealed: number; current: number }> {
    const outcome = { resealed: 0, current: 0 };
    for (const stored of await this.credentials.list(orgId)) {
      if (!this.secrets.isStale(stored.sealedKey)) {
        outcome.current++;
        continue;
      }
      const context = credentialContext(orgId, stored.provider);
      const resealed = this.secrets.seal(this.secrets.open(stored.sealedKey, context), context);
      if (await this.credentials.reseal(orgId, stored.provider, stored.sealedKey, resealed)) outcome.resealed++;
    }
    return outcome;
  }

  private sharesOperatorKey(provider: string): boolean {
    const shared = this.config.modelSharedProviders;
    return this.llm.isConfigured(provider) && (shared === undefined || shared.includes(provider));
  }

  private missingKey(provider: string): string {
    const operator = this.llm.isConfigured(provider)
      ? `this server does not share its own ${provider} key (MODEL_SHARED_PROVIDERS)`
      : `this server has no ${provider} key of its own`;
    return `the organisation has no ${provider} key and ${operator}: set one with PUT /api/v1/model-credentials/${provider}`;
  }

  /** A key can be set only where a provider takes one; one that takes none simply has none to remove or check (404). */
  private requireKeyed(provider: string): void {
    this.requireProvider(provider);
    if (!this.llm.isKeyed(provider)) throw PylonError.invalidRequest(`${provider} takes no key`);
  }

  private requireProvider(provider: string): void {
    if (!this.llm.hasProvider(provider)) throw PylonError.notFound(`no model provider ${provider} (GET /api/v1/models lists them)`);
  }

  private open(orgId: string, stored: StoredModelCredential): string {
    return this.secrets.open(stored.sealedKey, credentialContext(orgId, stored.provider));
  }
}

function toCredential(stored: StoredModelCredential): ModelCredential {
  return { provider: stored.provider, apiKeyHint: stored.keyHint, createdAt: stored.createdAt, updatedAt: stored.updatedAt };
}
