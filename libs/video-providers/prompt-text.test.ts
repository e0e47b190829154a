import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wrapPromptText } from './prompt-text';

describe('wrapPromptText', () => {
  it('wraps words at the width and keeps the text literal', () => {
    assert.equal(wrapPromptText(`it's "100%" fine: a\\b %{pts}`, 12, 10), `it's "100%"\nfine: a\\b\n%{pts}`);
  });

  it('turns CR/LF and Unicode separators into line breaks, tabs into spaces, and drops control characters', () => {
    assert.equal(wrapPromptText('one\r\ntwo\rthree\u2028four\tfive\u0007\u001b[31m', 40, 10), 'one\ntwo\nthree\nfour five[31m');
  });

  it('keeps at most one blank line, none at the ends', () => {
    assert.equal(wrapPromptText('\n\na\n\n\n\nb\n\n', 10, 10), 'a\n\nb');
  });

  it('splits over-long words and caps the lines with an ellipsis', () => {
    assert.equal(wrapPromptText('abcdefghij', 4, 10), 'abcd\nefgh\nij');
    assert.equal(wrapPromptText('one two three four five six', 5, 2), 'one\ntwo…');
  });

  it('splits by code point, not UTF-16 unit', () => {
    assert.equal(wrapPromptText('🎬🎬🎬🎬🎬🎬', 4, 5), '🎬🎬🎬🎬\n🎬🎬');
  });

  it('says so when there is nothing to draw', () => {
    assert.equal(wrapPromptText(' \n\t ', 10, 3), '(no prompt)');
  });
});
