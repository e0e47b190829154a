import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { loadConfig } from './pylon-config';

describe('SECRETS_KEY', () => {
  it('takes 32 bytes as base64 or hex, previous keys as a list, and never prints them', () => {
    const key = randomBytes(32);
    const previous = randomBytes(32);
    const config = loadConfig({ SECRETS_KEY: key.toString('base64'), SECRETS_PREVIOUS_KEYS: ` ${previous.toString('hex')} ,` });
    assert.deepEqual(config.secretsKey, key);
    assert.deepEqual(config.secretsPreviousKeys, [previous]);
    assert.ok(!JSON.stringify(config).includes(key.toString('base64')));
    assert.equal(loadConfig({ SECRETS_KEY: key.toString('base64url') }).secretsKey?.equals(key), true);
    assert.equal(loadConfig({}).secretsKey, undefined);
    assert.throws(() => loadConfig({ SECRETS_KEY: 'too-short' }), /SECRETS_KEY must be 32 random bytes/);
    assert.throws(() => loadConfig({ SECRETS_PREVIOUS_KEYS: randomBytes(16).toString('hex') }), /SECRETS_PREVIOUS_KEYS/);
  });
});
