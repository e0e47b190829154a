import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { Tiktoken } from 'js-tiktoken/lite';
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

  it('counts a long unbroken run (a blob a tool returned) in slices, within 1% of the exact count', () => {
    assert.equal(countTokens('R'.repeat(16_000)), 8_000);
    const exact = new Tiktoken(require('js-tiktoken/ranks/o200k_base'));
    for (const blob of [bytes(12_000).toString('base64'), `see ${bytes(4_000).toString('hex')} and ${'x'.repeat(300)}.`]) {
      const expected = exact.encode(blob).length;
      assert.ok(Math.abs(countTokens(blob) - expected) <= expected * 0.01, `${countTokens(blob)} against ${expected}`);
    }
  });
});

/** The same pseudo-random bytes on every run: a SHA-256 chain. */
function bytes(length: number): Buffer {
  const blocks: Buffer[] = [];
  for (let block = createHash('sha256').update('blob').digest(); blocks.length * 32 < length; block = createHash('sha256').update(block).digest())
    blocks.push(block);
  return Buffer.concat(blocks).subarray(0, length);
}
