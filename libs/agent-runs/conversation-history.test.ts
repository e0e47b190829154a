import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConversationItem, ConversationItemType } from './repositories/conversation.repository';
import { extractiveSummary } from './conversation-compaction';
import { SUMMARY_HEADING, compactionPlan, conversationHistory } from './conversation-history';

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

describe('compaction', () => {
  const long = (turn: number) => [
    item(`r${turn}`, 'input', { text: turn === 1 ? 'My account number is 4711-22. What can you do?' : `Note ${turn}: the sky was clear.` }),
    item(`r${turn}`, 'answer', { text: `Answer to turn ${turn}, padded ${'.'.repeat(80)}` }),
  ];
  const items = Array.from({ length: 20 }, (_, i) => long(i + 1)).flat();

  it('folds nothing while the history fits', () => {
    assert.equal(compactionPlan(items, 100_000), null);
  });

  it('folds the oldest whole turns so that the newest fit in half the budget; the history then opens with the summary', () => {
    const plan = compactionPlan(items, 400)!;
    assert.ok(plan.turnsBefore > 1 && plan.turnsBefore <= 20, String(plan.turnsBefore));
    assert.deepEqual(
      [...new Set(plan.items.map((folded) => folded.turn))],
      Array.from({ length: plan.turnsBefore - 1 }, (_, i) => i + 1),
      'whole turns, oldest first',
    );
    const summary = extractiveSummary(plan, 100);
    assert.match(summary, /^- My account number is 4711-22\.$/m, "the user's statement, not their question");
    assert.ok(!summary.includes('What can you do'));
    const compacted = [...items, item('r21', 'compaction', { text: summary, turns_before: plan.turnsBefore })];
    const history = conversationHistory(compacted, 400);
    assert.deepEqual(history.entries[0], { role: 'user', content: `${SUMMARY_HEADING}\n${summary}` });
    assert.ok(
      history.entries.slice(1).every((entry) => entry.role !== 'user' || !entry.content.includes('Note 2:')),
      'folded turns are seen only through the summary',
    );
  });

  it('a later summary keeps the earlier one first and stays within its budget; it is deterministic', () => {
    const first = { previous: null, items: items.slice(0, 10), turnsBefore: 6 };
    const once = extractiveSummary(first, 40);
    assert.equal(extractiveSummary(first, 40), once);
    const again = extractiveSummary({ previous: once, items: items.slice(10, 20), turnsBefore: 11 }, 40);
    assert.ok(again.startsWith(once));
    assert.ok(Math.ceil(again.length / 4) <= 40);
  });
});
