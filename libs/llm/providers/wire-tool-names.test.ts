import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WireToolNames } from './wire-tool-names';

describe('OpenAI tool names', () => {
  it('MCP names go out as <label>__<tool> and come back as they were; names that fit stay', () => {
    const names = new WireToolNames(['knowledge_search', 'lookup_order', 'shop.lookup_order', 'shop.a.b']);
    assert.equal(names.wire('lookup_order'), 'lookup_order');
    assert.equal(names.wire('shop.lookup_order'), 'shop__lookup_order');
    assert.equal(names.wire('shop.a.b'), 'shop__a_b');
    assert.equal(names.own('shop__lookup_order'), 'shop.lookup_order');
    assert.equal(names.own('shop__a_b'), 'shop.a.b');
    assert.equal(names.own('lookup_order'), 'lookup_order');
    assert.equal(names.wire('old.tool'), 'old__tool', 'a tool of an earlier turn, not offered now');
  });

  it('two names that would collide are numbered; long ones cut to 64', () => {
    const names = new WireToolNames(['shop__x', 'shop.x', `s.${'y'.repeat(80)}`]);
    assert.equal(names.wire('shop__x'), 'shop__x');
    assert.equal(names.wire('shop.x'), 'shop__x_2');
    assert.equal(names.own('shop__x_2'), 'shop.x');
    assert.equal(names.wire(`s.${'y'.repeat(80)}`).length, 64);
  });
});
