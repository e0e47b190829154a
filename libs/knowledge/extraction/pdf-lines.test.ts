import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageLines, type PositionedText } from './pdf-lines';

/** An item of 10 pt text whose width is 5 pt a character. */
function at(text: string, x: number, y: number): PositionedText {
  return { text, x, y, width: text.length * 5, fontSize: 10 };
}

describe('pageLines', () => {
  it('orders lines top to bottom and items left to right, whatever order pdf.js gives them in', () => {
    assert.deepEqual(pageLines([at('second', 50, 680), at('first', 50, 700)]), ['first', 'second']);
  });

  it('joins table cells across a wide gap with " | ", even with baselines a little apart', () => {
    const row = [at('Qty', 200, 650.5), at('Name', 50, 650), at('Where', 300, 649.8)];
    assert.deepEqual(pageLines(row), ['Name | Qty | Where']);
  });

  it('puts a space across a word gap and nothing between touching items', () => {
    assert.deepEqual(pageLines([at('two', 50, 600), at('words', 68, 600), at('joi', 100, 580), at('ned', 115, 580)]), ['two words', 'joined']);
  });

  it('ignores whitespace-only items (pdf.js pads gaps with them)', () => {
    assert.deepEqual(pageLines([at('Name', 50, 650), { text: ' ', x: 70, y: 650, width: 130, fontSize: 10 }, at('Qty', 200, 650)]), ['Name | Qty']);
  });

  it('makes a short line set clearly larger than the body text a heading, its level by how much larger', () => {
    const sized = (text: string, y: number, fontSize: number): PositionedText => ({ text, x: 50, y, width: text.length * fontSize * 0.5, fontSize });
    const body = 'Body text in ten point, long enough to be most of the page.';
    assert.deepEqual(
      pageLines([sized('Title', 800, 18), sized('Section', 760, 14), sized('Aside', 730, 12.5), sized(body, 700, 10), sized('Tiny caption', 680, 8)]),
      ['# Title', '## Section', '### Aside', body, 'Tiny caption'],
    );
  });

  it('does not make headings of a page set in one size, or of a table row', () => {
    assert.deepEqual(pageLines([at('Only', 50, 700), at('lines', 50, 680)]), ['Only', 'lines']);
    const big = (text: string, x: number): PositionedText => ({ text, x, y: 600, width: text.length * 8, fontSize: 16 });
    assert.deepEqual(pageLines([at('body text that is the most of this page', 50, 700), big('Col A', 50), big('Col B', 300)]), [
      'body text that is the most of this page',
      'Col A | Col B',
    ]);
  });
});
