import { ConfigError } from './config-error';

const HEX = /^[0-9a-fA-F]{64}$/;
const BASE64 = /^[A-Za-z0-9+/_-]{43}=?$/;

/** A secrets key as configured: 32 bytes as 64 hex digits or as base64/base64url (43 or 44 characters). */
export function parseSecretsKey(name: string, text: string): Buffer {
  const trimmed = text.trim();
  if (HEX.test(trimmed)) return Buffer.from(trimmed, 'hex');
  const key = BASE64.test(trimmed) ? Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64') : Buffer.alloc(0);
  if (key.length !== 32)
    throw new ConfigError(name, 'must be 32 random bytes, as 64 hex digits or 44 base64 characters (e.g. `openssl rand -base64 32`)');
  return key;
}

/** SECRETS_KEY (sealing and opening) and SECRETS_PREVIOUS_KEYS (comma-separated, opening only: keys being rotated out). */
export function readSecretsKeys(env: Record<string, string | undefined>): { current: Buffer | undefined; previous: Buffer[] } {
  const current = env.SECRETS_KEY?.trim() ? parseSecretsKey('SECRETS_KEY', env.SECRETS_KEY) : undefined;
  const previous = (env.SECRETS_PREVIOUS_KEYS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => parseSecretsKey('SECRETS_PREVIOUS_KEYS', entry));
  return { current, previous };
}
