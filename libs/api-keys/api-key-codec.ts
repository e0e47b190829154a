import { hash, randomInt, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { API_KEY_CHECKSUM_LENGTH, API_KEY_LENGTH, API_KEY_LOOKUP_LENGTH, API_KEY_PREFIX, API_KEY_SECRET_LENGTH } from '@pylon/contracts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${API_KEY_LENGTH - API_KEY_PREFIX.length}}$`);

function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

function checksum(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < API_KEY_CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export interface NewApiKeySecret {
  key: string;
  lookupId: string;
  hash: string;
  hint: string;
}

export function generateApiKey(lookupId = randomBase62(API_KEY_LOOKUP_LENGTH)): NewApiKeySecret {
  const body = `${API_KEY_PREFIX}${lookupId}${randomBase62(API_KEY_SECRET_LENGTH)}`;
  const key = `${body}${checksum(body)}`;
  return { key, lookupId, hash: hashApiKey(key), hint: `${API_KEY_PREFIX}${lookupId.slice(0, 6)}…` };
}

/** The lookup id of a well-formed key with a valid checksum, or null. Needs no database. */
export function parseApiKey(candidate: string): { lookupId: string } | null {
  if (!KEY_PATTERN.test(candidate)) return null;
  const body = candidate.slice(0, -API_KEY_CHECKSUM_LENGTH);
  if (checksum(body) !== candidate.slice(-API_KEY_CHECKSUM_LENGTH)) return null;
  return { lookupId: candidate.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + API_KEY_LOOKUP_LENGTH) };
}

export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function hashesMatch(expectedHex: string, actualHex: string): boolean {
  const expected = Buffer.from(expectedHex, 'hex');
  const actual = Buffer.from(actualHex, 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
