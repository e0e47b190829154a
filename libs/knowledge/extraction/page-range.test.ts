import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageRange } from './page-range';

describe('pageRange', () => {
  // Page 1 is [0, 100), page 2 [100, 250), page 3 [250, …).
  const starts = [0, 100, 250];

  it('a chunk inside one page is on that page', () => {
    assert.deepEqual(pageRange(10, 90, starts), { pageStart: 1, pageEnd: 1 });
    assert.deepEqual(pageRange(100, 250, starts), { pageStart: 2, pageEnd: 2 }, 'the end is exclusive: page 3 starts at 250');
    assert.deepEqual(pageRange(300, 400, starts), { pageStart: 3, pageEnd: 3 });
  });

  it('a chunk across page breaks spans the pages it touches', () => {
    assert.deepEqual(pageRange(90, 101, starts), { pageStart: 1, pageEnd: 2 });
    assert.deepEqual(pageRange(0, 251, starts), { pageStart: 1, pageEnd: 3 });
  });

  it('an empty page (two pages starting at the same offset) is skipped over', () => {
    assert.deepEqual(pageRange(100, 150, [0, 100, 100, 200]), { pageStart: 3, pageEnd: 3 });
    assert.deepEqual(pageRange(50, 150, [0, 100, 100, 200]), { pageStart: 1, pageEnd: 3 });
  });

  it('no pages or an empty range give null', () => {
    assert.equal(pageRange(0, 10, null), null);
    assert.equal(pageRange(0, 10, []), null);
    assert.equal(pageRange(10, 10, starts), null);
  });
});
