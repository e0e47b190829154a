import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { signatureHeaders } from './signing';
import { generateWebhookSecret } from './webhook-secret';

describe('a Standard Webhooks signature', () => {
  const id = 'msg_2LJH0uI3M1ArYOfA9IuJkqTUMkU';
  const at = new Date('2025-01-02T03:04:05.999Z');

  it('is byte for byte what standardwebhooks signs, for any secret and body (unicode, empty, large)', () => {
    const bodies = ['{}', '', '{"output":"héllo ✓ 𝄞"}', JSON.stringify({ data: 'x'.repeat(100_000) })];
    for (let i = 0; i < 20; i++) {
      const secret = generateWebhookSecret();
      for (const body of bodies) {
        const headers = signatureHeaders(id, at, body, [secret]);
        assert.equal(headers['webhook-signature'], new Webhook(secret).sign(id, at, body));
        assert.equal(headers['webhook-timestamp'], '1735787045');
        assert.equal(headers['webhook-id'], id);
      }
    }
  });

  it('accepts a secret without its whsec_ prefix, as standardwebhooks does', () => {
    const bare = Buffer.from('0123456789abcdef0123456789abcdef').toString('base64');
    assert.equal(signatureHeaders(id, at, '{}', [bare])['webhook-signature'], new Webhook(`whsec_${bare}`).sign(id, at, '{}'));
  });

  it('holds one signature per secret, space-separated, each verifying on its own (a rotation)', () => {
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const body = '{"id":"1"}';
    const headers = signatureHeaders(id, new Date(), body, [current, previous]);
    const signatures = headers['webhook-signature']!.split(' ');
    assert.equal(signatures.length, 2);
    for (const secret of [current, previous]) assert.doesNotThrow(() => new Webhook(secret).verify(body, headers));
    assert.throws(() => new Webhook(generateWebhookSecret()).verify(body, headers));
  });

  it('refuses an empty secret or one that is not base64, as standardwebhooks does', () => {
    for (const secret of ['whsec_', 'whsec_not base64!', 'whsec_MTI']) {
      assert.throws(() => new Webhook(secret).sign(id, at, '{}'));
      assert.throws(() => signatureHeaders(id, at, '{}', [secret]));
    }
  });
});
