import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { argumentsFromInput, inputNamesTool } from './function-arguments';

const lookupOrder = {
  type: 'object',
  properties: {
    order_id: { type: 'string' },
    include_items: { type: 'boolean' },
    quantity: { type: 'integer' },
    channel: { enum: ['email', 'sms'] },
  },
  required: ['order_id'],
};

describe('the offline model fills function arguments from the input', () => {
  it('reads `name: value`, `name value` and a stem without _id, converting by type', () => {
    assert.deepEqual(argumentsFromInput('Use lookup_order for order 42, include_items: yes, quantity=3 by sms.', lookupOrder), {
      order_id: '42',
      include_items: true,
      quantity: 3,
      channel: 'sms',
    });
    assert.deepEqual(argumentsFromInput('lookup_order order_id "A-7 b"', lookupOrder), { order_id: 'A-7 b' });
  });

  it('gives a required string the whole input when nothing names it, and leaves the rest out', () => {
    assert.deepEqual(argumentsFromInput('lookup_order please', lookupOrder), { order_id: 'lookup_order please' });
  });

  it('knows when the input names a tool, with or without underscores', () => {
    assert.ok(inputNamesTool('please Lookup Order 42', 'lookup_order'));
    assert.ok(inputNamesTool('call lookup_order now', 'lookup_order'));
    assert.ok(!inputNamesTool('my lookup_orders', 'lookup_order'));
  });
});
