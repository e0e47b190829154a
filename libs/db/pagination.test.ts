import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidCursorError, decodeCursor, encodeCursor } from './pagination';

describe('pagination cursors', () => {
  it('round-trip a position exactly', () => {
    const position = { createdAt: new Date('2026-11-21T04:27:34.348Z'), id: '6e6e8d3d-39e6-49c6-9ac4-b7fb5e9df8e5' };
    assert.deepEqual(decodeCursor(encodeCursor(position)), position);
  });

  it('refuse cursors the API did not issue', () => {
    for (const cursor of ['', 'garbage', Buffer.from('[1,2]').toString('base64url'), Buffer.from('["x","y"]').toString('base64url')]) {
      assert.throws(() => decodeCursor(cursor), InvalidCursorError);
    }
  });
});
