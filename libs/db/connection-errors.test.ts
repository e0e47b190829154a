import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './connection-errors';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('is true for a database that cannot be reached or went away mid-query', () => {
    for (const error of [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('connection failure', '08006'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new QueryFailedError('SELECT 1', [], withCode('terminating connection due to administrator command', '57P01')),
    ]) {
      assert.equal(isDatabaseUnavailable(error), true, error.message);
    }
  });

  it('is false for a query the database refused, and for anything else', () => {
    for (const error of [
      new QueryFailedError('INSERT', [], withCode('duplicate key value violates unique constraint', '23505')),
      withCode('canceling statement due to statement timeout', '57014'),
      new Error('something else'),
      'a string',
      undefined,
    ]) {
      assert.equal(isDatabaseUnavailable(error), false, String(error));
    }
  });
});
