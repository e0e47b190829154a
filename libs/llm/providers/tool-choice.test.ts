import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ToolSpec } from '../llm-provider';
import { toolsToCall } from './tool-choice';

const spec = (name: string): ToolSpec => ({ name, description: '', parameters: { type: 'object', properties: {} } });
const names = (input: string, tools: ToolSpec[]) => toolsToCall(input, tools).map((tool) => tool.name);

const SHOP = [spec('shop.lookup_order'), spec('shop.cancel_order')];
const DOCS = [spec('docs.search'), spec('docs.lookup_order')];

describe('which tools the offline model calls', () => {
  it('an MCP tool the input names by its label and name, as before', () => {
    assert.deepEqual(names('Please use shop.lookup_order for order 42.', SHOP), ['shop.lookup_order']);
    assert.deepEqual(names('nothing to do', SHOP), []);
  });

  it('an MCP tool the input names by its own name alone, or with spaces for underscores', () => {
    assert.deepEqual(names('Please use lookup_order for order 42.', SHOP), ['shop.lookup_order']);
    assert.deepEqual(names('cancel order 7 please', SHOP), ['shop.cancel_order']);
    assert.deepEqual(names('search the docs', [...SHOP, ...DOCS]), ['docs.search']);
  });

  it('a bare name two servers have: the first server of the version only', () => {
    assert.deepEqual(names('lookup_order 42', [...SHOP, ...DOCS]), ['shop.lookup_order']);
    assert.deepEqual(names('lookup_order 42', [...DOCS, ...SHOP]), ['docs.lookup_order']);
  });

  it('a label in the input says which server, even when the name comes again bare', () => {
    assert.deepEqual(names('use docs.lookup_order for order 42', [...SHOP, ...DOCS]), ['docs.lookup_order']);
    assert.deepEqual(names('docs.lookup_order, then lookup_order again', [...SHOP, ...DOCS]), ['docs.lookup_order']);
    assert.deepEqual(names('use shop.lookup_order and docs.lookup_order', [...SHOP, ...DOCS]), ['shop.lookup_order', 'docs.lookup_order']);
    assert.deepEqual(names('use legacy.lookup_order', SHOP), [], 'a label this version does not have names no tool of it');
  });

  it('a function tool of the same name is called, not the MCP tool; knowledge_search always', () => {
    const tools = [spec('knowledge_search'), spec('lookup_order'), ...SHOP];
    assert.deepEqual(names('lookup_order 42', tools), ['knowledge_search', 'lookup_order']);
    assert.deepEqual(names('cancel_order 42', tools), ['knowledge_search', 'shop.cancel_order']);
  });

  it('a word that only contains a tool name names no tool', () => {
    assert.deepEqual(names('my lookup_orders and research', [...SHOP, ...DOCS]), []);
  });
});
