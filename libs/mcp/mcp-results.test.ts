import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callResultText, cutToSize, listedTools } from './mcp-results';

describe('MCP results for the model', () => {
  it('text parts joined, other parts named, errors as {"error"}', () => {
    assert.equal(
      callResultText({
        content: [
          { type: 'text', text: 'a' },
          { type: 'image', data: 'xx', mimeType: 'image/png' },
          { type: 'text', text: 'b' },
        ],
      }),
      'a\n[image image/png]\nb',
    );
    assert.equal(callResultText({ content: [], structuredContent: { n: 1 } }), '{"n":1}');
    assert.equal(callResultText({ content: [{ type: 'text', text: 'boom' }], isError: true }), '{"error":"boom"}');
  });

  it('cut to the stated size, saying so', () => {
    assert.equal(cutToSize('abc', 5), 'abc');
    assert.equal(cutToSize('abcdefgh', 5), 'abcde\n[cut: the tool returned 8 characters; the first 5 are shown]');
  });

  it('only allowed tools, object schemas, bounded descriptions', () => {
    const tools = [
      { name: 'a', description: 'x'.repeat(5_000), inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
      { name: 'b', inputSchema: { type: 'object' } },
      { name: 'bad name', inputSchema: { type: 'object' } },
    ];
    assert.deepEqual(
      listedTools(tools, null).map((tool) => tool.name),
      ['a', 'b'],
    );
    assert.deepEqual(
      listedTools(tools, ['b']).map((tool) => tool.name),
      ['b'],
    );
    assert.equal(listedTools(tools, null)[0]!.description.length, 1_024);
    assert.deepEqual(listedTools(tools, ['b'])[0]!.parameters, { type: 'object' });
  });
});
