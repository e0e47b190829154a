import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { statementsPerRun } from './db-statements';

describe('statementsPerRun', () => {
  it('divides what each statement grew by by the runs, most frequent first, leaving out those that did not grow', () => {
    const before = new Map([
      ['SELECT a', 10],
      ['COMMIT', 4],
    ]);
    const after = new Map([
      ['SELECT a', 30],
      ['COMMIT', 4],
      ['INSERT b', 10],
    ]);
    assert.deepEqual(statementsPerRun(before, after, 10), {
      total: 3,
      statements: [
        { statement: 'SELECT a', perRun: 2 },
        { statement: 'INSERT b', perRun: 1 },
      ],
    });
  });
});
