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
