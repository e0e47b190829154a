import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { API_KEY_LENGTH } from '@pylon/contracts';
import { generateApiKey, hashApiKey, hashesMatch, parseApiKey } from './api-key-codec';

describe('API key codec', () => {
  it('makes pyl_ keys of a fixed length whose checksum verifies offline', () => {
    const { key, lookupId, hash, hint } = generateApiKey();
    assert.match(key, /^pyl_[0-9A-Za-z]+$/);
    assert.equal(key.length, API_KEY_LENGTH);
    assert.deepEqual(parseApiKey(key), { lookupId });
    assert.equal(hash, hashApiKey(key));
    assert.ok(key.startsWith(hint.replace('…', '')));
  });

  it('rejects any changed character, a wrong length or a wrong prefix', () => {
    const { key } = generateApiKey();
    for (let i = 4; i < key.length; i++) {
      const changed = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
      assert.equal(parseApiKey(changed), null, `position ${i}`);
    }
    assert.equal(parseApiKey(key.slice(0, -1)), null);
    assert.equal(parseApiKey(`xyz_${key.slice(4)}`), null);
    assert.equal(parseApiKey(''), null);
  });

  it('a rolled key keeps its lookup id and gets a new secret', () => {
    const first = generateApiKey();
    const rolled = generateApiKey(first.lookupId);
    assert.equal(rolled.lookupId, first.lookupId);
    assert.notEqual(rolled.key, first.key);
    assert.equal(hashesMatch(first.hash, rolled.hash), false);
    assert.equal(hashesMatch(first.hash, hashApiKey(first.key)), true);
  });

  it('never produces the same key twice', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => generateApiKey().key));
    assert.equal(keys.size, 2000);
  });
});
