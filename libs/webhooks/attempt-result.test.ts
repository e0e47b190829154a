import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attemptResult } from './attempt-result';

describe('attemptResult', () => {
  for (const [statusCode, refused, result] of [
    [200, false, 'delivered'],
    [204, false, 'delivered'],
    [299, false, 'delivered'],
    [410, false, 'gone'],
    [301, false, 'retry'],
    [404, false, 'retry'],
    [429, false, 'retry'],
    [503, false, 'retry'],
    [null, true, 'refused'],
    [null, false, 'error'],
  ] as const) {
    it(`${statusCode ?? 'no answer'}${refused ? ' (refused)' : ''} → ${result}`, () => {
      assert.equal(attemptResult({ statusCode, refused }), result);
    });
  }
});
