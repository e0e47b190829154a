import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { graphemeBoundaries } from './graphemes';
import { forEachSegment, isWordCut, wordSegmenter } from './segments';
import { createRandom, generateText, int, pick } from '../../../test/support/text-generator';

function wholeTextBoundaries(text: string, granularity: 'word' | 'grapheme'): number[] {
  const bounds = [...new Intl.Segmenter('en', { granularity }).segment(text)].map((s) => s.index);
  return [...bounds, text.length];
}

function blockwiseWordBoundaries(text: string): number[] {
  const bounds: number[] = [];
  forEachSegment(wordSegmenter, text, 0, text.length, isWordCut, (start) => bounds.push(start));
  return [...bounds, text.length];
}

/** Long lines without newlines, dense in the characters blocks are cut at. */
function punctuationSoup(seed: number): string {
  const random = createRandom(seed);
  const pieces = [
    'a',
    'Z9',
    '/',
    '-',
    '(',
    ')',
    '#',
    '*',
    '!',
    '?',
    ' ',
    '.',
    ',',
    ':',
    "'",
    '_',
    '。',
    '、',
    '日本',
    'カナ',
    '\u0301',
    '\u200d',
    '\ufe0f',
    '👍🏽',
    '🇫🇷',
    '\u00a0',
    '\r',
    '\n',
    '\r\n',
    '한국',
    'ภาษา',
    '@',
    '1.5',
  ];
  let text = '';
  while (text.length < 8_000) text += pick(random, pieces).repeat(int(random, 1, 3));
  return text;
}

/** Long runs with no safe cut at all, so blocks are forced and re-synchronised. */
function uncuttable(seed: number): string[] {
  const random = createRandom(seed);
  const alphabets = [
    ['ab', ',', '.', ':', "'", '_', '😀', '👍🏽', '🇫🇷', '\u0301', '\u200d', '12', 'カナ', 'x\ufeff', '"'],
    ['ภาษาไทย', 'ง่ายมาก', 'สวัสดี', 'ครับ', 'ประเทศ'],
    ['日本語', 'のテキスト', 'です', '中文', '文本', '测试', '知識', 'ベース'],
  ];
  return alphabets.map((pieces) => {
    let text = '';
    while (text.length < 12_000) text += pick(random, pieces).repeat(int(random, 1, 3));
    return text;
  });
}

describe('blockwise segmentation', () => {
  it('finds exactly the word boundaries of whole-text segmentation', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const random = createRandom(seed);
      let text = '';
      while (text.length < 10_000) text += generateText(random, 10);
      text = text.slice(0, 12_000);
      assert.deepEqual(blockwiseWordBoundaries(text), wholeTextBoundaries(text, 'word'), `seed ${seed}`);
      const soup = punctuationSoup(seed);
      assert.deepEqual(blockwiseWordBoundaries(soup), wholeTextBoundaries(soup, 'word'), `soup ${seed}`);
    }
  });

  it('finds the same word boundaries when blocks must be cut without a safe place', () => {
    for (let seed = 1; seed <= 3; seed++) {
      for (const text of uncuttable(seed)) {
        assert.deepEqual(blockwiseWordBoundaries(text), wholeTextBoundaries(text, 'word'), `seed ${seed}: ${text.slice(0, 20)}`);
      }
    }
  });

  it('finds exactly the grapheme boundaries of whole-text segmentation', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const soup = punctuationSoup(seed);
      assert.deepEqual(graphemeBoundaries(soup, 0, soup.length), wholeTextBoundaries(soup, 'grapheme'), `soup ${seed}`);
    }
  });
});
