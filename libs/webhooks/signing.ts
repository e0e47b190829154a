import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks headers for one message: `webhook-signature` holds a `v1,<base64 HMAC-SHA256>`
 * of "id.timestamp.body" per secret, space-separated, so during a rotation either secret verifies.
 */
export function signatureHeaders(messageId: string, timestamp: Date, body: string, secrets: string[]): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body));
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
