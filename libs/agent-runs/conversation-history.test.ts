import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConversationItem, ConversationItemType } from './repositories/conversation.repository';
import { conversationHistory } from './conversation-history';

let seq = 0;
function item(runId: string, type: ConversationItemType, data: Record<string, unknown>): ConversationItem {
  seq++;
  return { turn: Number(runId.slice(1)), seq, id: `item-${seq}`, runId, type, data, createdAt: new Date(0) };
}

describe('conversationHistory', () => {
  const turns = [
    item('r1', 'input', { text: 'My favourite colour is teal.' }),
    item('r1', 'answer', { text: 'Noted.' }),
    item('r2', 'input', { text: 'Where is order 42?' }),
    item('r2', 'tool_call', { call_id: 'c1', name: 'lookup_order', arguments: '{"order_id":"42"}' }),
    item('r2', 'tool_output', { call_id: 'c1', output: '{"status":"shipped"}' }),
    item('r2', 'answer', { text: 'It shipped.' }),
  ];

  it('gives every item in order as model messages, tool calls grouped per turn', () => {
    const history = conversationHistory(turns, 10_000);
    assert.equal(history.omitted, 0);
    assert.deepEqual(history.entries, [
      { role: 'user', content: 'My favourite colour is teal.' },
      { role: 'assistant', content: 'Noted.' },
      { role: 'user', content: 'Where is order 42?' },
      { role: 'assistant', toolCalls: [{ id: 'c1', name: 'lookup_order', arguments: '{"order_id":"42"}' }] },
      { role: 'tool', toolCallId: 'c1', content: '{"status":"shipped"}' },
      { role: 'assistant', content: 'It shipped.' },
    ]);
  });

  it('drops the oldest items first when the budget is short, and never half a tool call', () => {
    const history = conversationHistory(turns, 25);
    assert.ok(history.omitted > 0);
    assert.deepEqual(history.entries.at(-1), { role: 'assistant', content: 'It shipped.' });
    assert.ok(!history.entries.some((entry) => entry.role === 'user' && entry.content.includes('teal')));
    const calls = history.entries.flatMap((entry) => (entry.role === 'assistant' && 'toolCalls' in entry ? entry.toolCalls.map((c) => c.id) : []));
    const outputs = history.entries.flatMap((entry) => (entry.role === 'tool' ? [entry.toolCallId] : []));
    assert.deepEqual(calls, outputs);
    assert.equal(history.included + history.omitted, turns.length);
  });

  it('leaves out a call that never got its output (a turn that failed)', () => {
    const failed = [item('r3', 'input', { text: 'Cancel order 7' }), item('r3', 'tool_call', { call_id: 'c9', name: 'cancel', arguments: '{}' })];
    const history = conversationHistory(failed, 10_000);
    assert.deepEqual(history.entries, [{ role: 'user', content: 'Cancel order 7' }]);
    assert.equal(history.omitted, 1);
  });
});
