import { createHmac } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/**
 * The HMAC key of a Standard Webhooks secret (`whsec_` and base64), decoded as strictly as standardwebhooks
 * decodes it: a secret that is not canonical base64, or is empty, is refused rather than read leniently.
 */
function keyOf(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.toString('base64') !== encoded) throw new Error('Invalid secret: not base64');
  if (key.length === 0) throw new Error("Secret can't be empty.");
  return key;
}

/**
 * Standard Webhooks headers for one message: `webhook-signature` holds a `v1,<base64 HMAC-SHA256>`
 * of "id.timestamp.body" per secret, space-separated, so during a rotation either secret verifies.
 * The same bytes as standardwebhooks' `Webhook.sign`, by node:crypto's HMAC (native, not JavaScript's):
 * the body is hashed as it is, never copied into a joined string. Secrets are not kept.
 */
export function signatureHeaders(messageId: string, timestamp: Date, body: string, secrets: string[]): Record<string, string> {
  const seconds = String(Math.floor(timestamp.getTime() / 1000));
  const signatures = secrets.map(
    (secret) => `v1,${createHmac('sha256', keyOf(secret)).update(`${messageId}.${seconds}.`).update(body).digest('base64')}`,
  );
  return {
    'webhook-id': messageId,
    'webhook-timestamp': seconds,
    'webhook-signature': signatures.join(' '),
  };
}
