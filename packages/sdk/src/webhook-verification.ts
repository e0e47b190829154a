import { WebhookVerificationError } from './errors.js';

/** A delivered event, as Pylon signs and sends it. */
export interface WebhookEvent<Data = Record<string, unknown>> {
  id: string;
  type: string;
  created_at: string;
  data: Data;
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far the `webhook-timestamp` may be from now, in seconds (default 300), against replays. */
  toleranceSeconds?: number;
  /** Now, for tests. */
  now?: Date;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? Object.entries(record).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function bytesToBase64(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)));
}

/** Equal strings, compared in time that does not depend on where they differ. */
function equalInConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * Checks a delivered webhook (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`)
 * against the endpoint's secret, or its two secrets while a rotation's grace period runs, and returns the
 * event. Pass the body exactly as received (the raw text, not re-serialised JSON).
 */
export async function verifyWebhook<Data = Record<string, unknown>>(
  payload: string,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): Promise<WebhookEvent<Data>> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  const sentAt = Number(timestamp);
  const now = (options.now ?? new Date()).getTime() / 1000;
  if (!Number.isInteger(sentAt) || Math.abs(now - sentAt) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('the webhook-timestamp is too far from now (a replay, or a clock out of step)');
  }
  const offered = signatures
    .split(' ')
    .map((entry) => entry.split(','))
    .filter(([version, value]) => version === 'v1' && value)
    .map(([, value]) => value!);
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${payload}`);
  for (const candidate of typeof secret === 'string' ? [secret] : secret) {
    const key = await crypto.subtle.importKey('raw', base64ToBytes(candidate.replace(/^whsec_/, '')), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    const expected = bytesToBase64(await crypto.subtle.sign('HMAC', key, signed));
    if (offered.some((signature) => equalInConstantTime(signature, expected))) return JSON.parse(payload) as WebhookEvent<Data>;
  }
  throw new WebhookVerificationError('no signature matches the secret');
}
