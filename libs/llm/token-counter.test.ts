import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countTokens, countTurn } from './token-counter';

describe('token counter (o200k_base)', () => {
  it('counts as OpenAI’s tokenizer does', () => {
    assert.equal(countTokens(''), 0);
    assert.equal(countTokens('hello world'), 2);
    assert.equal(countTokens('Customer 4711 cannot log in since Monday.'), 10);
  });

  it('counts everything the model reads and what it answered', () => {
    const request = {
      orgId: 'org',
      model: 'extractive',
      instructions: 'Answer briefly.',
      input: 'hello world',
      temperature: null,
      maxOutputTokens: null,
      tools: [],
      responseFormat: null,
      history: [],
      transcript: [],
    };
    const usage = countTurn(request, { kind: 'answer', text: 'hello world' });
    assert.deepEqual(usage, { inputTokens: countTokens('Answer briefly.') + 2, outputTokens: 2, countedBy: 'tokenizer' });
  });

  it('counts a remembered text, a long one and one evicted long ago the same as the first time', () => {
    const long = 'retry '.repeat(5_000);
    const first = countTokens(long);
    assert.equal(countTokens(long), first);
    const instructions = 'Answer in one sentence, citing the source.';
    const expected = countTokens(instructions);
    for (let i = 0; i < 1_000; i++) countTokens(`unique text number ${i}`);
    assert.equal(countTokens(instructions), expected);
    assert.equal(countTokens('hello world'), 2);
  });
});
