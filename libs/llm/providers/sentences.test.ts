import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sentences } from './local.provider';

describe('sentences (the offline models stream their answers sentence by sentence)', () => {
  const cases: Array<[string, string[]]> = [
    ['One. Two! Three?', ['One. ', 'Two! ', 'Three?']],
    ['[local/extractive]\nPylon runs agents. "Quoted." End', ['[local/extractive]\n', 'Pylon runs agents. ', '"Quoted." ', 'End']],
    ['No end mark', ['No end mark']],
    ['Wait... what?!  Yes.', ['Wait... ', 'what?!  ', 'Yes.']],
    ['', []],
  ];
  for (const [text, expected] of cases) {
    it(JSON.stringify(text), () => {
      assert.deepEqual(sentences(text), expected);
      assert.equal(sentences(text).join(''), text, 'the pieces joined are the text');
    });
  }
});
