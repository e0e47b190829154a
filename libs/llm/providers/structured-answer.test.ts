import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fillSchema, unfillableSchemaFault } from './structured-answer';

const SCHEMA = {
  type: 'object',
  properties: { summary: { type: 'string' }, priority: { enum: ['low', 'high'] }, count: { type: 'integer' }, found: { type: 'boolean' } },
};

describe('the offline model’s structured answers', () => {
  it('fills strings with its answer, enums and numbers from what is stated or named, booleans by whether it had sources', () => {
    assert.deepEqual(fillSchema(SCHEMA, 'priority: high please', 'There are 3 open tickets [doc 3f2a1b4c-0000-4000-8000-000000000000].', true), {
      summary: 'There are 3 open tickets [doc 3f2a1b4c-0000-4000-8000-000000000000].',
      priority: 'high',
      count: 3,
      found: true,
    });
  });

  it('takes an enum’s first value when nothing names one, and leaves out a number it cannot find', () => {
    assert.deepEqual(fillSchema(SCHEMA, 'anything', 'No figures here.', false), { summary: 'No figures here.', priority: 'low', found: false });
  });

  it('refuses what it cannot fill, saying which property', () => {
    assert.equal(unfillableSchemaFault(SCHEMA), null);
    assert.equal(unfillableSchemaFault({ type: 'array' }), 'the schema must be an object (type "object")');
    assert.match(unfillableSchemaFault({ type: 'object', properties: { tags: { type: 'array' } } })!, /property tags is an array/);
    assert.match(unfillableSchemaFault({ type: 'object', properties: { owner: { type: 'object' } } })!, /property owner is an object/);
  });
});
