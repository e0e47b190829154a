import ipaddr from 'ipaddr.js';
import { ConfigError } from './config-error';

type Env = Record<string, string | undefined>;

function raw(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function readString(env: Env, name: string, fallback: string): string {
  return raw(env, name) ?? fallback;
}

export function readOptionalString(env: Env, name: string): string | undefined {
  return raw(env, name);
}

export function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value)) throw new ConfigError(name, `must be an integer, got "${value}"`);
  const parsed = Number(value);
  if (parsed < min || parsed > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${parsed}`);
  return parsed;
}

export function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (['true', '1', 'yes'].includes(value.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(value.toLowerCase())) return false;
  throw new ConfigError(name, `must be true or false, got "${value}"`);
}

export function readUrl(env: Env, name: string, protocols: readonly string[]): string | undefined {
  const value = raw(env, name);
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, `must be a URL, got "${value}"`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${url.protocol}"`);
  }
  return value;
}

export function readHostPort(env: Env, name: string, fallback: string): string {
  const value = raw(env, name) ?? fallback;
  if (!/^[A-Za-z0-9.\-_\[\]:]+:\d{1,5}$/.test(value)) throw new ConfigError(name, `must be host:port, got "${value}"`);
  return value;
}

export function readEnum<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = raw(env, name) ?? fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${value}"`);
  }
  return value as T;
}

/** A comma-separated list of allowed values; empty or unset means the fallback. */
export function readList<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: readonly T[]): T[] {
  const value = raw(env, name);
  if (value === undefined) return [...fallback];
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const unknown = items.filter((item) => !(allowed as readonly string[]).includes(item));
  if (unknown.length > 0 || items.length === 0) {
    throw new ConfigError(name, `must be a comma-separated list of ${allowed.join(', ')}, got "${value}"`);
  }
  return [...new Set(items)] as T[];
}

/**
 * A comma-separated list of private receiver targets: IP addresses, CIDRs or `loopback` (checked here
 * for their form; libs/webhooks reads them into its address policy). Empty or unset: none.
 */
export function readPrivateTargets(env: Env, name: string): string[] {
  const value = raw(env, name);
  if (value === undefined) return [];
  const items = [
    ...new Set(
      value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  ];
  const malformed = items.find((item) => item !== 'loopback' && !(item.includes('/') ? ipaddr.isValidCIDR(item) : ipaddr.isValid(item)));
  if (malformed) throw new ConfigError(name, `must list IP addresses, CIDRs or "loopback", comma-separated; "${malformed}" is none of them`);
  return items;
}

/** A model's price as MODEL_PRICES states it: service tokens per 1 000 input and per 1 000 output tokens. */
export interface ConfiguredModelPrice {
  /** `provider/model`, or `provider/*` for every model of the provider. */
  model: string;
  inputPer1k: number;
  outputPer1k: number;
}

const PRICED_MODEL = /^[a-z0-9_-]+\/(\*|[^\s*]+)$/i;

/** MODEL_PRICES: `{"<provider/model | provider/*>": {"input": n, "output": n}}`, prices ≥ 0. */
export function readModelPrices(env: Env, name: string): ConfiguredModelPrice[] {
  const value = raw(env, name);
  if (value === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new ConfigError(name, 'must be a JSON object such as {"openai/gpt-4o-mini": {"input": 0.15, "output": 0.6}}');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError(name, 'must be a JSON object of model ids');
  return Object.entries(parsed as Record<string, unknown>).map(([model, price]) => {
    if (!PRICED_MODEL.test(model)) throw new ConfigError(name, `"${model}" is not a provider/model id or provider/*`);
    const { input, output, ...rest } = (price ?? {}) as Record<string, unknown>;
    const valid = (amount: unknown): amount is number => typeof amount === 'number' && Number.isFinite(amount) && amount >= 0;
    if (!valid(input) || !valid(output) || Object.keys(rest).length > 0) {
      throw new ConfigError(name, `"${model}" must be {"input": <tokens per 1000>, "output": <tokens per 1000>}, each ≥ 0`);
    }
    return { model, inputPer1k: input, outputPer1k: output };
  });
}

/**
 * MODEL_SHARED_PROVIDERS: the providers whose operator key every organisation may run on, comma-separated, or
 * `none`. Unset: every configured provider (undefined).
 */
export function readSharedProviders(env: Env, name: string, known: readonly string[]): string[] | undefined {
  const value = raw(env, name);
  if (value === undefined) return undefined;
  if (value.trim() === 'none') return [];
  return readList(env, name, known, []);
}

/** The built-in providers' names: a named endpoint may not take one. */
export const BUILT_IN_MODEL_PROVIDERS = ['local', 'openai', 'anthropic', 'google'] as const;

/** An OpenAI-compatible endpoint the operator names in MODEL_PROVIDERS, with its key read from `apiKeyEnv`. */
export interface ConfiguredModelProvider {
  name: string;
  baseUrl: string;
  /** The variable that holds its key; none for a server that takes no key (a local Ollama). */
  apiKeyEnv: string | undefined;
  apiKey: string | undefined;
  /** The wire API it speaks: Chat Completions, or the Responses API. */
  api: 'chat_completions' | 'responses';
}

const PROVIDER_NAME = /^[a-z][a-z0-9-]{0,31}$/;
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

/**
 * MODEL_PROVIDERS: `[{"name", "base_url", "api_key_env"?, "api"?: "chat_completions" | "responses"}]`, each an
 * OpenAI-compatible server whose models are `<name>/<model>`. A key variable that is named but unset leaves the
 * provider unconfigured (its versions are refused), as an unset OPENAI_API_KEY does for `openai`.
 */
export function readModelProviders(env: Env, name: string): ConfiguredModelProvider[] {
  const value = raw(env, name);
  if (value === undefined) return [];
  const example = '[{"name": "ollama", "base_url": "http://127.0.0.1:11434/v1", "api": "chat_completions"}]';
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new ConfigError(name, `must be a JSON array such as ${example}`);
  }
  if (!Array.isArray(parsed)) throw new ConfigError(name, `must be a JSON array such as ${example}`);
  const seen = new Set<string>();
  return parsed.map((entry, index) => {
    const where = `entry ${index}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new ConfigError(name, `${where} must be an object`);
    const { name: provider, base_url: baseUrl, api_key_env: apiKeyEnv, api = 'chat_completions', ...rest } = entry as Record<string, unknown>;
    if (Object.keys(rest).length > 0) throw new ConfigError(name, `${where} has unknown fields: ${Object.keys(rest).join(', ')}`);
    if (typeof provider !== 'string' || !PROVIDER_NAME.test(provider))
      throw new ConfigError(name, `${where}: "name" must be lower-case letters, digits and "-" (at most 32), starting with a letter`);
    if ((BUILT_IN_MODEL_PROVIDERS as readonly string[]).includes(provider))
      throw new ConfigError(name, `${where}: "${provider}" is a built-in provider`);
    if (seen.has(provider)) throw new ConfigError(name, `${where}: "${provider}" is named twice`);
    seen.add(provider);
    if (typeof baseUrl !== 'string') throw new ConfigError(name, `${where} (${provider}): "base_url" must be an http or https URL`);
    readUrl({ [name]: baseUrl }, name, ['http:', 'https:']);
    if (apiKeyEnv !== undefined && (typeof apiKeyEnv !== 'string' || !ENV_NAME.test(apiKeyEnv)))
      throw new ConfigError(name, `${where} (${provider}): "api_key_env" must name an environment variable`);
    if (api !== 'chat_completions' && api !== 'responses')
      throw new ConfigError(name, `${where} (${provider}): "api" must be "chat_completions" or "responses"`);
    return { name: provider, baseUrl, apiKeyEnv, apiKey: apiKeyEnv ? raw(env, apiKeyEnv) : undefined, api };
  });
}
