import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_STATEMENT_LABELS, OTHER_STATEMENTS, statementLabel } from './prepared-statements';

describe('statement labels', () => {
  it('labels a statement by its text, whitespace collapsed, cut to 120 characters', () => {
    assert.equal(statementLabel('SELECT id\n   FROM agent_runs\n  WHERE id = $1'), 'SELECT id FROM agent_runs WHERE id = $1');
    const long = `SELECT ${'a, '.repeat(100)}b FROM t`;
    assert.equal(statementLabel(long).length, 120);
    assert.ok(long.replace(/\s+/g, ' ').startsWith(statementLabel(long)));
  });

  it('past the cap of distinct texts, the rest are counted as other', () => {
    for (let n = 0; n < MAX_STATEMENT_LABELS; n++) statementLabel(`SELECT ${n} AS distinct_text`);
    assert.equal(statementLabel('SELECT a text never seen before'), OTHER_STATEMENTS);
    assert.equal(statementLabel('SELECT 0 AS distinct_text'), 'SELECT 0 AS distinct_text', 'a text labelled before keeps its label');
  });
});
