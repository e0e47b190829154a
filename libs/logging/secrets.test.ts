import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maskSecrets } from './secrets';

describe('maskSecrets', () => {
  const cases: Array<[name: string, input: string, expected: string]> = [
    ['an API key', 'key pyl_3xAmpLe9Secret0Chars1234567890abc is wrong', 'key [REDACTED] is wrong'],
    ['a webhook secret (base64)', 'secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+/= rotated', 'secret [REDACTED] rotated'],
    ['a bare prefix', 'prefix pyl_ alone', 'prefix [REDACTED] alone'],
    ['a secret inside a quoted row', 'Failing row contains (1, whsec_abc, x)', 'Failing row contains (1, [REDACTED], x)'],
    ['a bearer credential', 'Authorization: Bearer abcdefgh12345678', 'Authorization: [REDACTED]'],
    ['a secret in JSON text, leaving the quotes', '{"msg":"pyl_abc","n":1}', '{"msg":"[REDACTED]","n":1}'],
    ['several secrets', 'pyl_a and whsec_b', '[REDACTED] and [REDACTED]'],
    ['text without secrets', 'missing bearer token; run 6e6e8d3d failed', 'missing bearer token; run 6e6e8d3d failed'],
  ];
  for (const [name, input, expected] of cases) {
    it(`masks ${name}`, () => assert.equal(maskSecrets(input), expected));
  }
});
