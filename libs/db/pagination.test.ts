import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidCursorError, decodeCursor, encodeCursor } from './pagination';

describe('pagination cursors', () => {
  it('round-trip a position exactly', () => {
    const position = { createdAt: new Date('2026-11-21T04:27:34.348Z'), id: '6e6e8d3d-39e6-49c6-9ac4-b7fb5e9df8e5' };
    assert.deepEqual(decodeCursor(encodeCursor(position)), position);
  });

  it('read every string of the published pattern as a position', () => {
    assert.deepEqual(decodeCursor('0_00000000-0000-0000-0000-000000000000'), { createdAt: new Date(0), id: '00000000-0000-0000-0000-000000000000' });
    assert.equal(decodeCursor('9999999999999_FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF').createdAt.getUTCFullYear(), 2286);
  });

  it('refuse anything else', () => {
    const id = '6e6e8d3d-39e6-49c6-9ac4-b7fb5e9df8e5';
    for (const cursor of [
      '',
      'garbage',
      `_${id}`,
      `-1_${id}`,
      `1.5_${id}`,
      `12345678901234_${id}`,
      '1_6e6e8d3d',
      `1_${id}x`,
      `1_${id}\n`,
      Buffer.from(`["2026-11-21T04:27:34.348Z","${id}"]`).toString('base64url'),
    ]) {
      assert.throws(() => decodeCursor(cursor), InvalidCursorError);
    }
  });
});
