import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unstorableReason } from './storable-json';

describe('unstorableReason', () => {
  const cases: Array<[label: string, body: unknown, refused: boolean]> = [
    ['plain text', { name: 'Acme', tags: ['a', 'b'] }, false],
    ['emoji (a surrogate pair)', { name: 'rocket \ud83d\ude80' }, false],
    ['non-Latin text', { title: 'Пилон 塔 ٱلْ' }, false],
    ['numbers, booleans and null', { a: 1, b: true, c: null, d: 1.5e10 }, false],
    ['the largest double and the smallest subnormal', { a: Number.MAX_VALUE, b: -Number.MAX_VALUE, c: 5e-324 }, false],
    ['a number parsed as Infinity (1e400)', JSON.parse('{"metadata": {"a": 1e400}}'), true],
    ['a number parsed as -Infinity deep in a list', JSON.parse('{"metadata": {"a": [1, -1e999]}}'), true],
    ['NUL in a value', { name: 'a\u0000b' }, true],
    ['NUL deep inside metadata', { metadata: { x: [{ y: 'ok' }, { z: '\u0000' }] } }, true],
    ['NUL in a property name', { metadata: { 'a\u0000': 1 } }, true],
    ['a lone high surrogate', { metadata: { note: '\ud800' } }, true],
    ['a lone low surrogate', { title: 'x\udc00y' }, true],
    ['a high surrogate at the end', { title: 'x\ud83d' }, true],
    ['two high surrogates', { title: '\ud83d\ud83d\ude80' }, true],
    ['a lone surrogate in a key', { metadata: { '\udfff': 1 } }, true],
  ];
  for (const [label, body, refused] of cases) {
    it(`${refused ? 'refuses' : 'accepts'} ${label}`, () => {
      const reason = unstorableReason(body);
      assert.equal(reason !== null, refused, String(reason));
      if (reason) assert.doesNotMatch(reason, /\u0000|[\ud800-\udfff]|leaf/, 'the reason never quotes the input');
    });
  }
});
