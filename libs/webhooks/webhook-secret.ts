import { randomBytes } from 'node:crypto';

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}
