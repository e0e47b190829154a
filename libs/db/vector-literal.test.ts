import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { vectorLiteral } from './vector-literal';

describe('vectorLiteral', () => {
  it("is pgvector's text form", () => {
    assert.equal(vectorLiteral([0.5, -1, 2e-7]), '[0.5,-1,2e-7]');
    assert.equal(vectorLiteral(Object.freeze([0.25, 1])), '[0.25,1]');
  });

  it('a vector that is not frozen is formatted as it is now, every time', () => {
    const vector = [1, 2];
    assert.equal(vectorLiteral(vector), '[1,2]');
    vector[0] = 3;
    assert.equal(vectorLiteral(vector), '[3,2]');
  });
});
