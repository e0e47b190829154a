import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { SecretBox, SecretUnreadableError, SecretsKeyMissingError } from './secret-box';

const CONTEXT = 'mcp-header:shop:authorization';

describe('SecretBox (AES-256-GCM under SECRETS_KEY)', () => {
  it('round trip: a sealed value opens to the plain one, and never contains it', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.seal('Bearer s3cret-token', CONTEXT);
    assert.match(sealed, /^pylon-secret:v1:[0-9a-f]{8}:[\w-]+:[\w-]+:[\w-]+$/);
    assert.ok(!sealed.includes('s3cret'));
    assert.equal(box.open(sealed, CONTEXT), 'Bearer s3cret-token');
    assert.notEqual(box.seal('Bearer s3cret-token', CONTEXT), sealed, 'a fresh IV each time');
    assert.equal(box.open(box.seal('', CONTEXT), CONTEXT), '');
    assert.equal(box.open(box.seal('ünïcødé ✓', CONTEXT), CONTEXT), 'ünïcødé ✓');
  });

  it('a wrong key, a tampered value or another context does not open', () => {
    const sealed = new SecretBox(randomBytes(32)).seal('value', CONTEXT);
    assert.throws(() => new SecretBox(randomBytes(32)).open(sealed, CONTEXT), SecretUnreadableError);
    const key = randomBytes(32);
    const box = new SecretBox(key);
    const mine = box.seal('value', CONTEXT);
    const parts = mine.split(':');
    const flipped = Buffer.from(parts[5]!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    parts[5] = flipped.toString('base64url');
    assert.throws(() => box.open(parts.join(':'), CONTEXT), /does not authenticate/);
    assert.throws(() => box.open(mine, 'mcp-header:other:authorization'), /does not authenticate/);
    assert.throws(() => box.open('plain text', CONTEXT), /not a sealed value/);
  });

  it('rotation: the previous key still opens, new values are sealed under the new key, resealing moves them', () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const before = new SecretBox(oldKey).seal('value', CONTEXT);
    const rotating = new SecretBox(newKey, [oldKey]);
    assert.equal(rotating.open(before, CONTEXT), 'value');
    assert.equal(rotating.isStale(before), true);
    const resealed = rotating.seal(rotating.open(before, CONTEXT), CONTEXT);
    assert.equal(rotating.isStale(resealed), false);
    const after = new SecretBox(newKey);
    assert.equal(after.open(resealed, CONTEXT), 'value');
    assert.throws(() => after.open(before, CONTEXT), /neither SECRETS_KEY nor in SECRETS_PREVIOUS_KEYS/);
  });

  it('without a key nothing is sealed; keys must be 32 bytes; digests are stable per key', () => {
    const none = new SecretBox(undefined);
    assert.equal(none.canSeal, false);
    assert.throws(() => none.seal('x', CONTEXT), SecretsKeyMissingError);
    assert.throws(() => new SecretBox(randomBytes(16)), /32 bytes/);
    const key = randomBytes(32);
    assert.equal(new SecretBox(key).digest('x'), new SecretBox(key).digest('x'));
    assert.notEqual(new SecretBox(key).digest('x'), new SecretBox(randomBytes(32)).digest('x'));
  });
});
